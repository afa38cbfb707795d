/* Device helpers of the checker on the CUDA runtime (compiled when the tests are built with CUDA). */
#include <cuda_runtime_api.h>
#include <stdio.h>

#include "checker.h"

static char last_error[256] = "no CUDA call made yet";

static int check(cudaError_t e, const char *what) {
    if (e == cudaSuccess) return 0;
    snprintf(last_error, sizeof last_error, "%s: %s", what, cudaGetErrorString(e));
    return 1;
}

int chk_dev_available(void) {
    int count = 0;
    if (check(cudaGetDeviceCount(&count), "cudaGetDeviceCount")) return 0;
    if (count <= 0) {
        snprintf(last_error, sizeof last_error, "no CUDA device present");
        return 0;
    }
    return 1;
}
void *chk_dev_alloc(size_t bytes) {
    void *p = NULL;
    if (check(cudaMalloc(&p, bytes ? bytes : 16), "cudaMalloc")) return NULL;
    return p;
}
void chk_dev_free(void *p) {
    if (p) check(cudaFree(p), "cudaFree");
}
int chk_dev_upload(void *dev, const void *host, size_t bytes) {
    return check(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice), "cudaMemcpy to device");
}
int chk_dev_download(void *host, const void *dev, size_t bytes) {
    return check(cudaMemcpy(host, dev, bytes, cudaMemcpyDeviceToHost), "cudaMemcpy to host");
}
int chk_dev_sync(void *stream) {
    if (check(cudaStreamSynchronize((cudaStream_t)stream), "cudaStreamSynchronize")) return 1;
    return check(cudaGetLastError(), "a previous CUDA call");
}
void *chk_dev_stream_create(void) {
    cudaStream_t s = NULL;
    if (check(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), "cudaStreamCreate")) return NULL;
    return (void *)s;
}
void chk_dev_stream_destroy(void *stream) {
    if (stream) check(cudaStreamDestroy((cudaStream_t)stream), "cudaStreamDestroy");
}
const char *chk_dev_last_error(void) { return last_error; }
