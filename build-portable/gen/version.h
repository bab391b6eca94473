#define OOMLAB_COMMIT "50ddddc58ba4-dirty"
#define OOMLAB_BUILD_KIND "portable"
