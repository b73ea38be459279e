#map = affine_map<(d0) -> (d0)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map2 = affine_map<(d0, d1, d2, d3) -> (d1, 0, 0)>
#map3 = affine_map<(d0, d1, d2, d3) -> (d0, d1, 0, 0)>
#map4 = affine_map<(d0, d1) -> (d0, d1)>
#map5 = affine_map<(d0, d1) -> (d1)>
module {
  func.func @main(%arg0: tensor<1x4x8x8xf32>) -> tensor<1x10xf32> {
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 1.000000e+00 : f32
    %cst_1 = arith.constant dense<[0.125504673, -0.194723621, 0.0732562393, -0.0807157233, 0.247602865, 0.309176266, 0.30706951, 0.0159043241, 0.208487988, -0.353248745]> : tensor<10xf32>
    %cst_2 = arith.constant dense<[0.148798466, 0.496070981, 0.0527380295, 0.209864214, 0.179667056, 0.132614508, 0.284967035, 0.131088868]> : tensor<8xf32>
    %cst_3 = arith.constant dense<[0.0197646599, 0.0227292217, 0.0202812348, 0.027474191, 0.0132927885, 0.0274293739, 0.00963925383, 0.0122978427]> : tensor<8xf32>
    %cst_4 = arith.constant dense<[0.00446817325, 0.00312751788, 0.00186851795, 0.00341651705, 0.00807805731, 0.00432123104, 0.00465325546, 0.00343354442]> : tensor<8xf32>
    %cst_5 = arith.constant dense<[0.00214631809, 0.0109088374, 0.00292824791, 0.00515421759]> : tensor<4xf32>
    %cst_6 = arith.constant dense<[1.3204939E-4, 2.24145861E-5, 2.99448129E-5, 3.76167918E-5]> : tensor<4xf32>
    %cst_7 = arith.constant dense<[0.29283157, 0.267587841, 0.338064224, 0.236129463]> : tensor<4xf32>
    %cst_8 = arith.constant dense<[[-0.0912574902, -0.192836165, -0.104716621, -0.303495318, 0.264579415, 0.144370869, -0.178304553, -0.120672449], [0.158617303, -0.130922735, 0.093229793, 0.0973479226, -0.222559467, 0.088565655, 0.0216318704, 0.308787823], [-0.127922684, -0.0908874422, 0.304621816, -0.288712531, 0.0255436879, 0.340649486, -0.15852201, 0.338945329], [0.313722283, 0.328924745, -0.0337371603, 0.319836169, -0.154050052, -0.121023156, 0.13372542, 0.074687168], [0.194905356, 0.335988611, -0.221320555, 0.187640205, 0.118286438, 0.186523482, 0.167645246, -0.132253692], [-0.279433042, 0.282978743, -0.201608732, 0.22603628, -0.33681035, -0.0611655712, 0.00374727626, 0.0611730739], [0.0285784286, 0.111406893, -0.0393662527, 0.0865867808, 0.34987089, -0.22876744, -0.0193028767, -0.134959474], [0.310218215, 0.302655786, -0.00964113325, -0.122553132, -0.218448669, 0.252981424, -0.02434697, 0.332979947], [0.201618046, 0.309466898, 0.279633701, -0.229753926, 0.103485852, -0.146604061, 0.177396551, -0.0317879096], [0.0306070838, -0.244520634, -0.315979719, 0.133138642, 0.0821606442, 0.0307106376, 0.240131542, -0.147634849]]> : tensor<10x8xf32>
    %cst_9 = arith.constant dense<[[[[0.188024759]], [[-0.213596284]], [[0.398047745]], [[-0.400356591]]], [[[-0.0691125392]], [[0.0107958913]], [[0.256973565]], [[0.404665351]]], [[[0.338602245]], [[0.220098019]], [[-0.229496896]], [[-0.357073843]]], [[[-0.447306395]], [[0.0248023272]], [[0.484940112]], [[-0.0949712395]]], [[[-0.0210492611]], [[-3.633470e-01]], [[0.153504848]], [[0.316991687]]], [[[-0.49295795]], [[-0.352061093]], [[0.370353878]], [[0.118382275]]], [[[-0.0311730504]], [[0.0893791317]], [[-0.076020956]], [[-0.349482477]]], [[[-0.467214942]], [[0.328853965]], [[-0.059468329]], [[-0.185693622]]]]> : tensor<8x4x1x1xf32>
    %cst_10 = arith.constant dense<"0x13BFC33DA3D1B2BDDDAD9ABC3FD28EBDA5E689BD2302E53C1F8DE23D8F5AC1BD5512923DF9457ABDCC0ABCBC7795BF3D625ADABC2CD12F3CC7B7A8BD6A74CD3D889A79BC1B87B0BD4A580D3D4B9CABBD2E85BFBD1C41EB3B2B5CBF3DFF9908BD1233633DAF67CF3D8615A03D16377DBD7AA953BC75E717BD1815C2BD6B3C4C38699BB53D4C59CB3DDC26343CD945DB3CABFA50BD2730B63DF8DC48BD29A9A7BDC2AB943CC9AA903D7A9BD9BD492EDA3D14A62D3D6B19A9BD56F6CFBCF965D13DD82DB9BD69160DBD73521E3D7C73D3BD0950843D20477B3D38B1953DB8E099BDD864F03D82118FBD65F5F03D4AA1E7BD320BD7BDEC3D943D1BCD493C0DC8DE3B96A785BD0A7D4ABD09240DBD0D1FEBBD9CB0C83BFCBEAA3CA43ED1B865E21B3D8B03E53DDA58003DB7B530BD3EA946BD436C9ABD8F50A7BDBF7B9BBCA2C0AABC44BE563DE0544EBD9169C03D5E5BA9BDE89CAF3968F6D83D0101F03D6BCF8BBDE1F8AB3C7514643CC15262BDD4C626BD04BF023D2ED5A7BDF74A9F3C55E2503D8F393EBD9A7BC83DA924FEBBF1035B3DFC04EF3D3B8D13BD1128833D4F120ABD31068DBC169DA3BC7EEE3FBA0F5B36BD2249E23C1883913BBEFE983DD468C3BCD5A0413C079133BD8920CABD1B57433D0E12773C205241BD9D3523BD747BFC3C3591AEBCEDB89D3DCABDDA3B2457363D8B51523DB7E2ECBCF0DA503D5F1BB23D12B6B13BD7EDBC3C9D518C3BF41BA73D27CD4BBD9A4C80BDA158523DE90ED2BD32A7F73A70FF5DBD1C4E9F3DFBB6E0BD0958923D4FCAEE3DB758C33CCBA500BCF194ED3D6F4A4EBD4CBA1ABC7C6253BD234585BCB1D3D13CEDF1803CC658B6BC1652F1BDB7BCC53BF3C864BBB53C913C05F1B83D749AEA3DB3318FBD0ACCF0BB976941BD9472DEBD8DA0AFBDC087E23D24BA8C3D75A5813D3A22863D37C1BFBD5CC74A3CEFA2E03DFAB286BD32B6D63DFDC0FD3C80CEA93D60CA4EBDAA8A5E3D3FF6D5BD1C34F5BBE002213DB8C3103DA4F8C93D5A2CED3D0294DB3DF00BA23DC0B0A93DDA2379BC554EBBBDB73233BDBDC458BC5E6D82BD62C0763D7F72293D68C69B3C2536E93CC105D43D34D22F3D46A8D3BDAC32AFBD05C2543DA691833CEB6A6B3DD70CF1BD30BEDEBDFE01943D63629A3D395CDABD943B373DC076BCBD7BC8B63DED78173D1AA7EE3D68FAEDBDC559E8BDF32EA33DC148D63D3BE0933D7676A03D344ACBBDF3B2AE3DE6E0E3BD1CAED73C3F199EBDC6BB3FBDDEF2AA3C90CB3DBD11C198BC1CC4E4BD3092E3BDBAFC3A3D00534CBD23D792BDD9783EBDDF53C5BD4AF1C0BD316C903D7656753D7A99803C41D883BDD099203D617DAD3B287EACBD89C0CF3CA1C4DB3D0167EDBD7001F0BD9C64773CB1BFB53D53DD92BD4587D43C02ACA93D76D4143D4BEED03C6DCFF03D273D9D3D34BF87BDDEE5263C7F9B763D5DDBD43DD922F0BD7FB2823D02260CBD0E58ECBD434DD63C326683BD6AD0883CA0B39CBD37A1B5BD28D623BC4F2822BD95298D3DEA79263C1A65BC3DF8ECB43C39391BBD0B7BA33D7D06D33B5434B53CCB401BBD88BEDD39A4A0B9BC5C2824BC223BBCBD93FE3DBAB856C8BDF4B1CFBCF7E08B3D42D4A7BD44B0A2BDA6BCEBBC5A5404BDAF6FA33C0D47A03CE5C8743D8244A6BD954308BC73FD863DCEC4D03D34D90CBCBFA78BBD70C30A3DD472893D01CA96BD220F8CBD515C553DDB4907BC9FF6E3BD002A8BBD12C2433DEEB923BDD497A63DD3CDBE3D24718C3CEBAE18BC563A19BDBD45C3BBC8BAAF3CC75CB8BD32BCE6BC43C3C8BDA522943DCCB499BDFC7DDC3DF8DEF8BCC7448ABD6AEC673D27ED8F3C6D21A73D2F85493DC182E8BD46A8983D18CEB5BCF55855BDAB46993DD007B03D5023D4BD93982EBCA834C63D4DF33A3D7056CB3D4A6D25BDD82485BD0A8CCF3D4135493D56B3E73D38A149BDFCF79ABDBD5262BC4742E3BDAC363D3D1006B23D79C2E73C93C83EBCB3556F3DF93399BD9F1BEC3D70FEEFBD7535E7BD5E22E4BC2227C53D8654413CC862393DFAEAB0BD5C0A303D2DC357BC207C413D4575AA3DFCD3513D843F24BC55E1EDBB2B6097BDA6992EBD27D89C3D809141BDC3E4953DC7693FBD5AD9E0BC745F243BA77CDDBDD83C9ABAB09F42BC6D762DBCACFEC0BC3448BE3DB41EB23D3995A3BD4C3C603D6151BDBD6379CDBDE98E133D2A04E33AEE3061BDB2CAE8BDAEE03ABD483A213D0167DFBDD878EABD89F9743C49E0ADBD3173D3BD14FC39BDA46F9BBC0553DBBD8429A1BDD534FD3B4698E3BD45B287BCA3D89BBDB351A7BD26B93D3D89C5B9BD02E9B6BD84A4893D0C81B43C10CFDB3D450701BD012969BD0AB232BCC24D1C3A3712B83DB869F0BDC47A09BC0E88553D91E984BDF14975BD3C48693D4944E7BD07C4E43C62DBBABDD9F06F3D2E5FCEBD8463943D797AE4BDE2E0CABDF8A3E33A2D30BE3DEAB2CEBD375257BD44FBD33DB6E6A1BC94FB473DE22FE8BD40CE17BDCD2375BD037BCB3DEA58483D271DB0BD88A79B3CFF89B1BA995546BDA5D589BD3E2F20BDE33EBE3DD304ADBD39EEABBD85ED14BD445C063BD366033D63C4673BC267E8BC205992BD163BADBCE05142BD4000C33DF7F0EABDFDF399BD0E5EC4BDA870B0BCB115BC3D8C8FD33DD01DD2BD3B51A7BB6DAB8D3DEDC7543DBCB2C53D613C56BBDE2AA2BD9AAA9F3DF78725BDDFF1793D34EBEDBC60334D3DAC15D93DD96DE03D0AA7DBBD80A79FBD859647BD3BEA99BD8795E73D4D882ABC711AA0BDF5CD56BD775185BDA4F1443D9986D2BD430BE1BD25ECEDBD64D24F3DA9AE6E3D32E795BD5568EF3CE82AB23D7B478C3CC244CCBC4CA80E3C040B4FBC580C733DB5E2A3BDA1C9743D2209883DBE3B92BDC715C53D2B0FED3D274D3EBDE83407BDB790703DEE15BDBD10E53E3DAC3DE13CC522983D6BA5D1BD7A84C8BD85CD583D5CE12D3D1FA6E0BDA19886BDA2D6DCBD4BEAACBD63CD59BDE5BBC73DC72BC0BCF99F8A3DD236E53D81FD5B3D3311D8BD2FEA723D1B20383DB311BB3DBB15EEBD9170943DFB8FC53D508DE0BD24054A3CB20ACE3DDE8AAFBDA0631E3D614D553D0508FD3C3FFAEF3DB39EC53D4013CF3D56AD70BC516ECA3DF5ECE0BD953E82BD187DCEBC0D650FBD30F1DE3D72AE633DE0639B3DBC2CA43DCE4BB4BDB9A25FBC3BFA8C3C501AFB3CBE3A783DAD1340BD608E11BD85F4C93DD48D01BD74A8A7BDADA6A33D0A70A33D4E5D17BD9702C1BC1418B2BDB78EC9BD"> : tensor<8x8x3x3xf32>
    %cst_11 = arith.constant dense<"0xAFDB103E9619333C967EE3BDD69674BDE611153D2F1A02BEF393A93D6EF11ABE8C0F24BE80D425BEF07C0ABD1686E53D4C8821BE1FDB0D3E888A88BD36F1473D800DF93BB6E419BEF0890D3EE8C9B73D56A4293E1E72AC3DB64DE1BD866F0E3E16C2123CABDDA13D73D808BE605A44BDE39227BE60F284BDC045133D3E0006BE169C593DE63AB73D2034BE3C6661E4BD3C5204BE309D52BDC0D4953D5258283ECE46C43DCBBF99BCAB5A6F3D4B6F27BE42C411BED3449F3D1E56C1BDC836A43D4BF5F0BDEE10A9BD86930CBE231FB23DEB1E8BBC6358033EE03DD33DD0DFBC3D809DAF3BC61053BDF06E14BD2074B53CC333A93D7B22EFBD9C3C0F3EEB7394BC67020FBE5BAEB8BD4702173E4E141C3EC7151EBEE8BDF03DF60FAB3DA00ACA3D6E79103E33F6B7BDD091573D58AF8B3D36B949BDE074643D906944BD8008D33DB6683DBDC67E7EBD56DC2B3D3623723D0BC4A6BDEB62713C9BD0C53DA0D887BC36C24F3D7BA624BD40466F3D8842F7BDBEB6C8BDF041ADBD33D81C3EDBB137BD5695EEB9DE5FA5BDF65F2A3E5FAF263EEBB600BEB65A0ABE385D01BE56B552BAB0032EBD136BDFBD80DA74BD10FA003DF057B2BD5B44173DDB8B1CBDCB65A5BDB693BB3C03550C3EB6C4E6BD0098FD3BD6BE7BBDEE79273E1AEC21BE8C9C23BE202C283E4BF5D7BD16E2023D56AC6BBCFBCE0FBDDB7818BDA6E5D83D8084023CDF2926BE7682C9BDA6B868BDB8C3AB3D68E3DCBDCAEC203EC60C18BD7629F5BC2CBA053E888EAB3DF2BE103E3E71C53DF0164FBD1B77E2BD802B4BBC0A400D3ED01D65BD6A451EBE18EC8B3D9E23263E005842BDE7500DBE0BCE1ABE6B132B3DEBC34EBC765EACBD1BFD093DD69F813D04BC073EA880043E405ECCBCFF7C16BEE6371ABE86591F3E60E3963D2BCA943D16AA13BE3F0A1E3E0EAE213E92161A3ECBF80FBE06CB80BDB8C1EABD8F9D213E03AA92BD58D69BBD36D4B23DF0E59DBD3E1DA8BD00DB6EBC363C83BC17F204BE84470E3ECE9196BDEB26723D6E71143ED823AC3DC04DC13C8336113E6089B73C8EEB9DBD5A73213EEB92213D268426BE765942BD5381E8BDECA1153EAB7AE1BC22911BBEABA82BBC9B5CD63D6B5B313DBBDC573D169B7D3CCB827E3D465526BD50C887BD0A861FBECB9100BE4BEF933DA81BCABD2BE1C33CC0E6593D8057413CAB4DDDBDA036233E337CC6BD9A5F0C3E4AC407BEE63624BDB8ACB93D53768BBD0A5E0F3E08E4EABD2E520FBEEBE999BDEBB4DC3C70241D3EEEF3A2BD1024743D3B262BBD700B14BDCBFBFA3DA74304BE4004913C1B7F203E0B9DBBBC1A83043E5B3B52BD5661093E4F1725BEE0C6C4BCE0D0EFBCF63D5D3D18EA853D6F0A033E606ACBBCD691D8BBB8BFE93D16B638BDB69C153E8E43E3BD16BE93BCABAA12BC6B4E983D885CE93D1669D8BCDF640DBEC620A93D10354C3D061D893DB88ED2BD3EAEDB3DD6A5213E96F16C3C33691FBED09CEF3D0015FDBD10ED1C3D4068C63CA8C19FBD96B36D3D5CA618BEDB7B1B3D7B63D8BD76A393BC0B9FAF3C0666113E68DBA2BDA3ABDA3D8B71ADBCD31BA2BDD29D14BEFE961CBEC6AC263EBB412ABDC064083C5014393DE803E83DDBA8113E"> : tensor<8x4x3x3xf32>
    %cst_12 = arith.constant dense<"0x101C1CBD2BDFF2BB18E3CFBDE6E0663D00D6573DAB5161BB808819BD7668D2BD1B0CEC3DC618FEBD1ED58B3D908C65BDB3AEA4BD8046F53CD84EB1BD2B4A1D3D0B10063DB86FFDBD7653E33C4362913D3E1C873DCBDDABBC12E90BBEC078D2BC6B186D3DE61679BD4E90813DB350E33D4E3AB2BD566FD73A18248D3D1606563CC018643CA07BAA3C522B06BE2B99563CF05CEC3D43CA193E769EC83D76F5B63C53689F3D3E0DA6BDF36D0DBE87C212BE3C422A3EBEACD83DEEF0EBBD4E8B853DC7E1003ED7992A3EE63A153E8339043EF6811CBD80936FBD2C200C3EB846BF3D4068CDBDAA6E193E0BEBA43DAB12BA3D8EF0D5BD60DB433D3B516FBDFE59053ECBADF5BCA6E2843D5683F23CFB39913D2BFD67BDA36CA63D5369EEBD062F1A3D80F1E6BD7C5E28BE0B0E09BE7ABC063E6BACB83D461F203E86B9083EC06918BEBEEFE8BD369DDCBC43ACDDBD4B05ED3D7C0601BE7B89A6BD2EE124BE5ECAC1BD975E0C3E2CBC0B3EDB56F43DC2C6033E27C1173E40CE2EBDF82F963D580D183EC6D6613D879C2A3E7609B13D7630D43D90ED6EBDF8C7A33DC0E29C3C5B0823BDB869C0BD1E87BFBD225303BEBE25E53D1EAAF23D6B649BBC5B86C5BDC2E8033E6647DA3D40FB4A3CD027A1BDD0D91C3EC8958B3D928F01BE9757233E8C99013E66D378BDD0E1BF3D1EF1C1BDA0F7D5BCCCE9103E56A8E13BAB65F1BD702B64BD7B4E39BDC0B403BDCBA9823C6CD61D3E6B33123CBBC0D2BD56F50B3C3BAAA33DA850A93D96FA1BBEEB50F4BCF6A8FDBD5BA491BDD6F5753D2064F2BDFBC37D3D"> : tensor<4x4x3x3xf32>
    %cst_13 = arith.constant dense<"0x445019BE80D1A1BD686AE83DAB9C8DBA93A8A9BDACC802BE00B81FBE480B10BE4B780ABD7330BB3DF089B83DAC9824BEE8EAD43D5C8C05BEA05210BDBE668ABDF67D03BD600906BDD22519BE2E5C13BE8BA5D5BC00410D3B260F9BBD7B94803D279C19BE004938BC6C16163E263A8BBDCF1C1A3EF63A773D1F051ABEF0F5D73D4B8D9DBCA05F98BD6379083E38EA09BECB81923CD6ED0EBD1EC0F33D0B903E3D3303A43D0017713D002A24BD8B910FBDABA40CBE10F3B83D6F81073E7B8CE93DE6C4F0BD2B93F33B169EF0BD0BE6BBBD96E5C6BD464C693DB067CBBD564D6EBB80BFE53B0608DC3DA70201BE5B54EABDFB32C6BD1EE9EE3D106575BD96F40F3E80DB763D00E3AC3C009EA2BA5BF306BDAB4DAB3C20E21BBDAB7E99BA0035AE3C107F05BE4EE7B2BDE6CF093E04810ABE2B1444BC80D4283EC09A763D80A09A3BC4E613BEC816A93D0B20F3BDE0C841BDBB0B65BD4B30CABC56F3EE3A64C40C3E5672AA3C6BDD183E40CCD03DB3CBD7BDE316993D8649F1BD68AA90BDABC9483D4069613DF709003EE0C25BBDABE28B39F8B9AF3DE70C25BE03C7F63DCB200DBEAB8A163B2B21E8BC63C5B3BD2075B43CA2200D3E8B8E47BDC8A5CABD067A7CBDEF2729BE68139A3D16EEA3BD16C9E3BD83A4C4BD6E40C43DDBC2B43D8BFD023E769E773DB0FB63BD1BC53EBD20AE493D3F4B0C3E9B9C393D1380A1BDFE73A0BD2C5C21BE207D133DE08CBFBD8B2918BE52A7153E6BAADDBD8B529BBC6094433D2BFDAD3B4EADE5BD1EF409BE1009083E4054DE3CDA960D3E8BDB64BD4B15493D"> : tensor<4x4x3x3xf32>
    %cst_14 = arith.constant dense<"0x568DA3BA281BB73D64770CBE5633FBBD4E7783BDE60F373DAB6958BBDF51073E965472BC66A4343D904F4EBD4B3006BDD00B23BE180FE2BD9BB48CBDAB4ECA3BEBF0863DCBCECC3D6667E7BD53A394BDCBF4773D34B80D3E307E0CBD7B6CFF3DAB11DCBCB678903CDC881A3E8A521EBEDEE1D6BDD6D32CBD3E0D85BDC674133ECE3EDDBD80209DBD2378EEBDFAD61FBE0640C7BD6AB4123E284F983D566FA53D2B9C0F3CF8FEAEBD56FEE63CBF591FBECEA2F6BDB3F7AFBD335CD73D8821C83D306197BDD60EC5BBAB4DDA3D57AA293E1878873D6072B83CFEDBE43D56FAC8BDF66BFE3C9E5104BECB92ECBDC353B0BDB3719A3D5045893D8E30CABD0B3D4E3DE861BB3D2B54ACBCAB85D03B562D1E3D56C1D33D86DF233E0F8503BE3B2D7ABDBB25863DE0670D3EF083143EC296163E50DC073DA66814BE6B337B3C3B8AD5BDB30D1FBED4A2173EA0C4013EAA3E2ABE608DFF3C0B01E6BC4BAEE0BC683F9CBD0843833D462CCABD7B427A3D739DAC3DD059F43DB6417F3D32EA28BE006CDDBDD06EAA3D10E20E3D642205BEE08BC4BDF78D203E1BFFE53D76D494BD1BD12BBDA69322BE565344BBA68500BE17A503BE6B7516BC80FFCC3C4EC98BBD208ACA3DF6B6CFBD9BDB1A3E6BEAE93D98EB0FBEB0E729BD006EF63B2034C73C36E9213DE8F2853D4091233CDE8BA6BDE383A13D3AB623BE804FCABD50E42ABD9E44A6BDD0D16EBDD2E10BBEAB3611BDA6EC113DF35DDEBDD6220CBC0058F43D4B5B8CBC56C8973B56926BBCB6280A3D8008D93DD2A9213E08C4D83D8308223E807C45BC"> : tensor<4x4x3x3xf32>
    %cst_15 = arith.constant dense<[[[0.0168086775]], [[-0.00424685795]], [[0.00964103266]], [[-0.00501036551]]]> : tensor<4x1x1xf32>
    %cst_16 = arith.constant dense<[[[0.246977225]], [[0.245633841]], [[0.2508789]], [[0.25680387]]]> : tensor<4x1x1xf32>
    %cst_17 = arith.constant dense<[[[-0.00166394084]], [[-0.0113222711]], [[0.00598123809]], [[-0.0412963331]]]> : tensor<4x1x1xf32>
    %cst_18 = arith.constant dense<[[[0.00742886681]], [[0.00198578136]], [[0.00254186941]], [[0.00307344249]]]> : tensor<4x1x1xf32>
    %cst_19 = arith.constant dense<[[[0.266206741]], [[0.217396408]], [[0.239187464]], [[0.252046973]]]> : tensor<4x1x1xf32>
    %cst_20 = arith.constant dense<[[[0.0188954286]], [[-8.922110e-03]], [[-0.0499660634]], [[0.0494851209]]]> : tensor<4x1x1xf32>
    %cst_21 = arith.constant dense<[[[0.0164884645]], [[0.0377993807]], [[0.0214823429]], [[0.0269496124]]]> : tensor<4x1x1xf32>
    %cst_22 = arith.constant dense<[[[0.283592373]], [[0.227741852]], [[2.530570e-01]], [[0.251946867]]]> : tensor<4x1x1xf32>
    %cst_23 = arith.constant dense<[[[-0.0133253289]], [[-0.0081544444]], [[0.0127952835]], [[-0.0188311078]]]> : tensor<4x1x1xf32>
    %cst_24 = arith.constant dense<[[[0.0223402325]], [[0.0192577913]], [[0.0129509289]], [[0.0172031596]], [[0.0269714408]], [[0.0185488202]], [[0.0182230603]], [[0.019135559]]]> : tensor<8x1x1xf32>
    %cst_25 = arith.constant dense<[[[0.229478016]], [[0.286022723]], [[0.272685945]], [[0.325268775]], [[0.272661477]], [[0.239308894]], [[0.217685476]], [[0.287525743]]]> : tensor<8x1x1xf32>
    %cst_26 = arith.constant dense<[[[0.0507964157]], [[0.0193736255]], [[-0.00163538975]], [[-0.0142168393]], [[-0.00788977649]], [[-0.0101629877]], [[0.00302184164]], [[-0.0147903813]]]> : tensor<8x1x1xf32>
    %cst_27 = arith.constant dense<[[[0.00691940356]], [[3.49603128E-4]], [[-0.00943756849]], [[0.0193809159]], [[0.00158924994]], [[0.0193278827]], [[0.00333129568]], [[0.0112717571]]]> : tensor<8x1x1xf32>
    %cst_28 = arith.constant dense<[[[0.228568077]], [[0.262704492]], [[0.215940654]], [[0.234976962]], [[0.255537957]], [[0.204675615]], [[0.22917068]], [[0.245528713]]]> : tensor<8x1x1xf32>
    %cst_29 = arith.constant dense<[[[0.041414842]], [[1.821230e-02]], [[-0.00700333435]], [[0.0583708249]], [[-0.027148474]], [[-0.0273680296]], [[0.0463216417]], [[-0.00197976152]]]> : tensor<8x1x1xf32>
    %cst_30 = arith.constant dense<[[[0.0848218948]], [[0.0930885672]], [[0.0677774772]], [[0.0732962266]], [[0.085963197]], [[0.081169188]], [[0.0884228274]], [[0.08073958]]]> : tensor<8x1x1xf32>
    %cst_31 = arith.constant dense<[[[0.23836495]], [[0.236360207]], [[0.234361723]], [[0.2652165]], [[0.23161599]], [[0.247745976]], [[2.826350e-01]], [[0.230066791]]]> : tensor<8x1x1xf32>
    %cst_32 = arith.constant dense<[[[0.00965326931]], [[-0.0167740602]], [[-0.00211257068]], [[-0.0432099216]], [[0.0299402457]], [[0.00273374538]], [[-0.0183795411]], [[0.0300155375]]]> : tensor<8x1x1xf32>
    %cst_33 = arith.constant 1.600000e+01 : f32
    %padded = tensor.pad %arg0 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
    %0 = tensor.empty() : tensor<1x4x8x8xf32>
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %2 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded, %cst_14 : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%1 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %3 = tensor.empty() : tensor<4xf32>
    %4 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_7 : tensor<4xf32>) outs(%3 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.sqrt %in : f32
      linalg.yield %64 : f32
    } -> tensor<4xf32>
    %5 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%4 : tensor<4xf32>) outs(%3 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.cmpf one, %in, %cst : f32
      cf.assert %64, "unimplemented: tensor with zero element"
      %65 = arith.divf %cst_0, %in : f32
      linalg.yield %65 : f32
    } -> tensor<4xf32>
    %expanded = tensor.expand_shape %5 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %6 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2, %cst_15 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.subf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %7 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%6, %expanded : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %8 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%7, %cst_16 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %9 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8, %cst_17 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.addf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %10 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9, %9 : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %padded_34 = tensor.pad %10 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
    %11 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_34, %cst_13 : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%1 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %12 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11, %11 : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_6 : tensor<4xf32>) outs(%3 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.sqrt %in : f32
      linalg.yield %64 : f32
    } -> tensor<4xf32>
    %14 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%13 : tensor<4xf32>) outs(%3 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.cmpf one, %in, %cst : f32
      cf.assert %64, "unimplemented: tensor with zero element"
      %65 = arith.divf %cst_0, %in : f32
      linalg.yield %65 : f32
    } -> tensor<4xf32>
    %expanded_35 = tensor.expand_shape %14 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %15 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12, %cst_18 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.subf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %16 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%15, %expanded_35 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %17 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%16, %cst_19 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %18 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%17, %cst_20 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.addf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %padded_36 = tensor.pad %18 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
    %19 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_36, %cst_12 : tensor<1x4x10x10xf32>, tensor<4x4x3x3xf32>) outs(%1 : tensor<1x4x8x8xf32>) -> tensor<1x4x8x8xf32>
    %20 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%19, %10 : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.addf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %21 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%20, %20 : tensor<1x4x8x8xf32>, tensor<1x4x8x8xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %22 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_5 : tensor<4xf32>) outs(%3 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.sqrt %in : f32
      linalg.yield %64 : f32
    } -> tensor<4xf32>
    %23 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%22 : tensor<4xf32>) outs(%3 : tensor<4xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.cmpf one, %in, %cst : f32
      cf.assert %64, "unimplemented: tensor with zero element"
      %65 = arith.divf %cst_0, %in : f32
      linalg.yield %65 : f32
    } -> tensor<4xf32>
    %expanded_37 = tensor.expand_shape %23 [[0, 1, 2]] output_shape [4, 1, 1] : tensor<4xf32> into tensor<4x1x1xf32>
    %24 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%21, %cst_21 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.subf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %25 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%24, %expanded_37 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %26 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%25, %cst_22 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %27 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%26, %cst_23 : tensor<1x4x8x8xf32>, tensor<4x1x1xf32>) outs(%0 : tensor<1x4x8x8xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.addf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x4x8x8xf32>
    %padded_38 = tensor.pad %27 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x4x8x8xf32> to tensor<1x4x10x10xf32>
    %28 = tensor.empty() : tensor<1x8x4x4xf32>
    %29 = linalg.fill ins(%cst : f32) outs(%28 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %30 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded_38, %cst_11 : tensor<1x4x10x10xf32>, tensor<8x4x3x3xf32>) outs(%29 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %31 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%30, %30 : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %32 = tensor.empty() : tensor<8xf32>
    %33 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_4 : tensor<8xf32>) outs(%32 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.sqrt %in : f32
      linalg.yield %64 : f32
    } -> tensor<8xf32>
    %34 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%33 : tensor<8xf32>) outs(%32 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.cmpf one, %in, %cst : f32
      cf.assert %64, "unimplemented: tensor with zero element"
      %65 = arith.divf %cst_0, %in : f32
      linalg.yield %65 : f32
    } -> tensor<8xf32>
    %expanded_39 = tensor.expand_shape %34 [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
    %35 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%31, %cst_24 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.subf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %36 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%35, %expanded_39 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %37 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%36, %cst_25 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %38 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%37, %cst_26 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.addf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %padded_40 = tensor.pad %38 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg1: index, %arg2: index, %arg3: index, %arg4: index):
      tensor.yield %cst : f32
    } : tensor<1x8x4x4xf32> to tensor<1x8x6x6xf32>
    %39 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_40, %cst_10 : tensor<1x8x6x6xf32>, tensor<8x8x3x3xf32>) outs(%29 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %40 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%27, %cst_9 : tensor<1x4x8x8xf32>, tensor<8x4x1x1xf32>) outs(%29 : tensor<1x8x4x4xf32>) -> tensor<1x8x4x4xf32>
    %41 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_3 : tensor<8xf32>) outs(%32 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.sqrt %in : f32
      linalg.yield %64 : f32
    } -> tensor<8xf32>
    %42 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%41 : tensor<8xf32>) outs(%32 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.cmpf one, %in, %cst : f32
      cf.assert %64, "unimplemented: tensor with zero element"
      %65 = arith.divf %cst_0, %in : f32
      linalg.yield %65 : f32
    } -> tensor<8xf32>
    %expanded_41 = tensor.expand_shape %42 [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
    %43 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%40, %cst_27 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.subf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %44 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%43, %expanded_41 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %45 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%44, %cst_28 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %46 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%45, %cst_29 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.addf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %47 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%39, %46 : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.addf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %48 = linalg.generic {indexing_maps = [#map1, #map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%47, %47 : tensor<1x8x4x4xf32>, tensor<1x8x4x4xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %49 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%cst_2 : tensor<8xf32>) outs(%32 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = math.sqrt %in : f32
      linalg.yield %64 : f32
    } -> tensor<8xf32>
    %50 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel"]} ins(%49 : tensor<8xf32>) outs(%32 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.cmpf one, %in, %cst : f32
      cf.assert %64, "unimplemented: tensor with zero element"
      %65 = arith.divf %cst_0, %in : f32
      linalg.yield %65 : f32
    } -> tensor<8xf32>
    %expanded_42 = tensor.expand_shape %50 [[0, 1, 2]] output_shape [8, 1, 1] : tensor<8xf32> into tensor<8x1x1xf32>
    %51 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%48, %cst_30 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.subf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %52 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%51, %expanded_42 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %53 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%52, %cst_31 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.mulf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %54 = linalg.generic {indexing_maps = [#map1, #map2, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%53, %cst_32 : tensor<1x8x4x4xf32>, tensor<8x1x1xf32>) outs(%28 : tensor<1x8x4x4xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.addf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x4x4xf32>
    %55 = tensor.empty() : tensor<1x8x1x1xf32>
    %56 = linalg.fill ins(%cst : f32) outs(%55 : tensor<1x8x1x1xf32>) -> tensor<1x8x1x1xf32>
    %57 = linalg.generic {indexing_maps = [#map1, #map3], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%54 : tensor<1x8x4x4xf32>) outs(%56 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.addf %in, %out : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x1x1xf32>
    %58 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%57 : tensor<1x8x1x1xf32>) outs(%55 : tensor<1x8x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %64 = arith.divf %in, %cst_33 : f32
      linalg.yield %64 : f32
    } -> tensor<1x8x1x1xf32>
    %collapsed = tensor.collapse_shape %58 [[0], [1, 2, 3]] : tensor<1x8x1x1xf32> into tensor<1x8xf32>
    %59 = tensor.empty() : tensor<8x10xf32>
    %transposed = linalg.transpose ins(%cst_8 : tensor<10x8xf32>) outs(%59 : tensor<8x10xf32>) permutation = [1, 0] 
    %60 = tensor.empty() : tensor<1x10xf32>
    %61 = linalg.fill ins(%cst : f32) outs(%60 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %62 = linalg.matmul ins(%collapsed, %transposed : tensor<1x8xf32>, tensor<8x10xf32>) outs(%61 : tensor<1x10xf32>) -> tensor<1x10xf32>
    %63 = linalg.generic {indexing_maps = [#map4, #map5, #map4], iterator_types = ["parallel", "parallel"]} ins(%62, %cst_1 : tensor<1x10xf32>, tensor<10xf32>) outs(%60 : tensor<1x10xf32>) {
    ^bb0(%in: f32, %in_43: f32, %out: f32):
      %64 = arith.addf %in, %in_43 : f32
      linalg.yield %64 : f32
    } -> tensor<1x10xf32>
    return %63 : tensor<1x10xf32>
  }
}
