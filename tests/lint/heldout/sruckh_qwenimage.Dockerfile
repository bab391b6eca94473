# source: sruckh/qwenimage-runpod:Dockerfile@ab98dda47c4e474d6322b050538d7c1745562640 (trimmed excerpt)
FROM runpod/pytorch:2.2.0-py3.10-cuda12.1.1-devel-ubuntu22.04

WORKDIR /

ENV PYTHONUNBUFFERED=1
ENV PYTORCH_CUDA_ALLOC_CONF=expandable_segments:True

COPY bootstrap.sh .

CMD ["./bootstrap.sh"]
