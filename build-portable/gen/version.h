#define OOMLAB_COMMIT "454905f88b31-dirty"
#define OOMLAB_BUILD_KIND "portable"
