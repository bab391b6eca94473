#define OOMLAB_COMMIT "0b06f4915783-dirty"
#define OOMLAB_BUILD_KIND "release"
