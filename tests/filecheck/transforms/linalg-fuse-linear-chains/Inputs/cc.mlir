module {
  func.func @main(%arg0: tensor<2x2x9x9xf32>) -> tensor<2x4x3x3xf32> {
    %cst = arith.constant dense_resource<torch_tensor_4_torch.float32> : tensor<4xf32>
    %cst_0 = arith.constant dense_resource<torch_tensor_4_3_2_2_torch.float32> : tensor<4x3x2x2xf32>
    %cst_1 = arith.constant dense_resource<torch_tensor_3_2_3_3_torch.float32> : tensor<3x2x3x3xf32>
    %cst_2 = arith.constant dense_resource<torch_tensor_3_torch.float32> : tensor<3xf32>
    %0 = tensor.empty() : tensor<2x3x7x7xf32>
    %broadcasted = linalg.broadcast ins(%cst_2 : tensor<3xf32>) outs(%0 : tensor<2x3x7x7xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%arg0, %cst_1 : tensor<2x2x9x9xf32>, tensor<3x2x3x3xf32>) outs(%broadcasted : tensor<2x3x7x7xf32>) -> tensor<2x3x7x7xf32>
    %2 = tensor.empty() : tensor<2x4x3x3xf32>
    %broadcasted_3 = linalg.broadcast ins(%cst : tensor<4xf32>) outs(%2 : tensor<2x4x3x3xf32>) dimensions = [0, 2, 3] 
    %3 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%1, %cst_0 : tensor<2x3x7x7xf32>, tensor<4x3x2x2xf32>) outs(%broadcasted_3 : tensor<2x4x3x3xf32>) -> tensor<2x4x3x3xf32>
    return %3 : tensor<2x4x3x3xf32>
  }
}

{-#
  dialect_resources: {
    builtin: {
      torch_tensor_4_torch.float32: "0x04000000CB9C93BED16688BE9345353ED7143D3E",
      torch_tensor_4_3_2_2_torch.float32: "0x04000000752D723C021A0CBCE1E0313D9281623E24AA8F3E53602FBE1C7593BC84E1ECBD843888BE341957BE8CB88A3ED45A2C3E9EC81E3E9047243EC4D96ABE2C5AF83CA98F893ED9F824BEC87B833E51649B3D46F84F3E0044FDBD4447083E3D0683BEE82796BC9B32C53DB34CB13DFF5C773E053D913EAF76863E3D77463ED6D34F3E069118BDEC6665BED378DBBD39BE04BD75BD1FBE931A173E9787CF3DDFC83E3DF3CF8E3D33D6813E0456D73DF59C81BEA19256BE7D49023E6C23213DCC29103E",
      torch_tensor_3_2_3_3_torch.float32: "0x040000008F39BEBD9A7B483EA9247EBCF103DB3DFC046F3E3B8D93BD1128033E4F128ABD31060DBD169D23BD7EEEBFBA0F5BB6BD2249623D1883113CBEFE183ED46843BDD5A0C13C0791B3BD89204ABE1B57C33D0E12F73C2052C1BD9D35A3BD747B7C3D35912EBDEDB81D3ECABD5A3C2457B63D8B51D23DB7E26CBDF0DAD03D5F1B323E12B6313CD7ED3C3D9D510C3CF41B273E27CDCBBD9A4C00BEA158D23DE90E52BE32A7773B70FFDDBD1C4E1F3EFBB660BE0958123E4FCA6E3EB758433DCBA580BCF1946D3E6F4ACEBD4CBA9ABC7C62D3BD234505BDB1D3513D",
      torch_tensor_3_torch.float32: "0x04000000EDF1003DC65836BD165271BE"
    }
  }
#-}
