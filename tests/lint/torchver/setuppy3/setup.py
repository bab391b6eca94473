# constructed, in the form of huggingface/accelerate:setup.py@16cb6eb80dd9aa8b4df1a63ef57863e455d53b83
# (its install_requires names "torch>=2.0.0"; the project has no requirements.txt)
from setuptools import find_packages, setup

extras = {"testing": ["pytest", "datasets"]}

setup(
    name="example",
    version="0.1.0",
    packages=find_packages("src"),
    install_requires=[
        "numpy>=1.17",
        "packaging>=20.0",
        "torch>=2.0.0",
        "safetensors>=0.4.3",
    ],
    extras_require=extras,
)
