# source: SemyonKim/Neural-Network-Exercises:ONE_KnowledgeDistillation/TwoStageCooperativeNN/Step1/parameter_transfer.py@e6b3d7e0a6431a1a02c566ee814643c20be3bd12 (trimmed excerpt; its mixed tab/space indentation kept)
if args.resume:
 pretrained_dict  = torch.load(args.resume)   # expect: load-without-map-location
 best_acc = pretrained_dict['best_acc']
	for name, param in pretrained_dict.items():
		if name == "module.control_v1.weight":
			pretrained_dict[name] = param
	model.load_state_dict(model_dict)
	pretrained_dict5  = torch.load('/content/model_best5.pth.tar')   # expect: load-without-map-location
