"""`report-depth` and `report-kernels`: print an analysis; the IR is unchanged."""
