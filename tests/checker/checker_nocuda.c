/* Device helpers of the checker in a build without CUDA: there is no device, and every helper says so. */
#include "checker.h"

static const char *why = "the tests were built without CUDA";

int chk_dev_available(void) { return 0; }
void *chk_dev_alloc(size_t bytes) {
    (void)bytes;
    return NULL;
}
void chk_dev_free(void *p) { (void)p; }
int chk_dev_upload(void *dev, const void *host, size_t bytes) {
    (void)dev, (void)host, (void)bytes;
    return 1;
}
int chk_dev_download(void *host, const void *dev, size_t bytes) {
    (void)dev, (void)host, (void)bytes;
    return 1;
}
int chk_dev_sync(void *stream) {
    (void)stream;
    return 1;
}
void *chk_dev_stream_create(void) { return NULL; }
void chk_dev_stream_destroy(void *stream) { (void)stream; }
const char *chk_dev_last_error(void) { return why; }
