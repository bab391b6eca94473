# source: restated from bond005/pisets:Dockerfile@e095ae626bbd18bb4490b9745d0acc34006c4eb8 (line 51: the
# allocator setting exported inside its own RUN step, then the server started by ENTRYPOINT;
# each RUN is a shell of its own, so the export ends with that step)
FROM pytorch/pytorch:2.3.1-cuda11.8-cudnn8-runtime
WORKDIR /srv/asr
RUN python3 -m pip install -r requirements.txt
RUN export HF_HOME=/srv/hf-cache
RUN export PYTORCH_CUDA_ALLOC_CONF=garbage_collection_threshold:0.6,max_split_size_mb:128   # expect: alloc-conf-docker-run
RUN python3 fetch_models.py
ENTRYPOINT ["python3", "serve.py"]
