/* Handles, streams, messages and version. */
#define _GNU_SOURCE /* dladdr, realpath: the file of the loaded library */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "checker.h"

static void create_and_destroy(void **state) {
    (void)state;
    chk_env *env = chk_begin();
    smallla_handle_t h = (smallla_handle_t)&h;
    chk_expect_status(env, smallla_create(&h, env->backend), SMALLLA_SUCCESS, "smallla_create");
    if (h == NULL) chk_fail("smallla_create returned a NULL handle");
    if (smallla_get_backend(h) != (int)env->backend) chk_fail("smallla_get_backend: %d", smallla_get_backend(h));
    if (smallla_last_error(h)[0] != '\0') chk_fail("a new handle has a message: \"%s\"", smallla_last_error(h));
    chk_expect_status(env, smallla_destroy(h), SMALLLA_SUCCESS, "smallla_destroy");
    /* destroyed: every use is refused */
    chk_expect_status(env, smallla_destroy(h), SMALLLA_INVALID_HANDLE, "smallla_destroy twice");
    if (smallla_get_backend(h) != -1) chk_fail("smallla_get_backend of a destroyed handle");
    void *s = NULL;
    chk_expect_status(env, smallla_get_stream(h, &s), SMALLLA_INVALID_HANDLE, "get_stream on a destroyed handle");
    chk_expect_status(env, smallla_set_stream(h, NULL), SMALLLA_INVALID_HANDLE, "set_stream on a destroyed handle");
    if (strncmp(smallla_last_error(NULL), "smallla_set_stream: argument 1", 30) != 0)
        chk_fail("thread message after an invalid handle: \"%s\"", smallla_last_error(NULL));
}

static void null_handles(void **state) {
    (void)state;
    chk_env *env = chk_begin();
    chk_expect_status(env, smallla_destroy(NULL), SMALLLA_INVALID_HANDLE, "smallla_destroy(NULL)");
    chk_expect_status(env, smallla_set_stream(NULL, NULL), SMALLLA_INVALID_HANDLE, "smallla_set_stream(NULL)");
    void *s = NULL;
    chk_expect_status(env, smallla_get_stream(NULL, &s), SMALLLA_INVALID_HANDLE, "smallla_get_stream(NULL)");
    if (smallla_get_backend(NULL) != -1) chk_fail("smallla_get_backend(NULL) != -1");
    if (smallla_last_error(NULL) == NULL) chk_fail("smallla_last_error(NULL) is NULL");
}

static void create_arguments(void **state) {
    (void)state;
    chk_env *env = chk_begin();
    chk_expect_status(env, smallla_create(NULL, env->backend), SMALLLA_INVALID_VALUE, "smallla_create(NULL)");
    if (strncmp(smallla_last_error(NULL), "smallla_create: argument 1", 26) != 0)
        chk_fail("message: \"%s\"", smallla_last_error(NULL));
    smallla_handle_t h = (smallla_handle_t)&h;
    chk_expect_status(env, smallla_create(&h, (smallla_backend_t)7), SMALLLA_INVALID_VALUE, "smallla_create(backend 7)");
    if (h != NULL) chk_fail("smallla_create must set the handle to NULL on failure");
    if (strncmp(smallla_last_error(NULL), "smallla_create: argument 2", 26) != 0)
        chk_fail("message: \"%s\"", smallla_last_error(NULL));
}

/* Without a usable device the CUDA backend is refused at creation with a message; with one, it is created. */
static void cuda_backend_availability(void **state) {
    (void)state;
    chk_env *env = chk_begin();
    smallla_handle_t h = NULL;
    smallla_status_t st = smallla_create(&h, SMALLLA_BACKEND_CUDA);
    if (chk_dev_available()) {
        if (st != SMALLLA_SUCCESS && st != SMALLLA_NOT_SUPPORTED)
            chk_fail("smallla_create(CUDA) with a device: %s", smallla_status_string(st));
        if (st == SMALLLA_NOT_SUPPORTED) print_message("      library built without CUDA: %s\n", smallla_last_error(NULL));
    } else {
        if (st != SMALLLA_NOT_SUPPORTED)
            chk_fail("smallla_create(CUDA) without a device: %s, expected SMALLLA_NOT_SUPPORTED", smallla_status_string(st));
        if (h != NULL) chk_fail("handle not NULL after a refused create");
        if (smallla_last_error(NULL)[0] == '\0') chk_fail("no message after a refused create");
    }
    if (st == SMALLLA_SUCCESS) smallla_destroy(h);
    (void)env;
}

static void status_strings(void **state) {
    (void)state;
    chk_begin();
    static const struct {
        smallla_status_t s;
        const char *name;
    } table[] = {{SMALLLA_SUCCESS, "SMALLLA_SUCCESS"},
                 {SMALLLA_INVALID_HANDLE, "SMALLLA_INVALID_HANDLE"},
                 {SMALLLA_INVALID_VALUE, "SMALLLA_INVALID_VALUE"},
                 {SMALLLA_ALLOC_FAILED, "SMALLLA_ALLOC_FAILED"},
                 {SMALLLA_EXECUTION_FAILED, "SMALLLA_EXECUTION_FAILED"},
                 {SMALLLA_NOT_SUPPORTED, "SMALLLA_NOT_SUPPORTED"},
                 {SMALLLA_INTERNAL_ERROR, "SMALLLA_INTERNAL_ERROR"}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; ++i)
        if (strcmp(smallla_status_string(table[i].s), table[i].name) != 0)
            chk_fail("smallla_status_string(%d) = \"%s\"", (int)table[i].s, smallla_status_string(table[i].s));
    if (strcmp(smallla_status_string((smallla_status_t)42), "unknown status") != 0)
        chk_fail("smallla_status_string(42) = \"%s\"", smallla_status_string((smallla_status_t)42));
    if (SMALLLA_SUCCESS != 0) chk_fail("SMALLLA_SUCCESS must be 0");
}

/* The version against the build's configured one (SMALLLA_BUILD_VERSION_*: the project's version, which
 * CMakeLists.txt reads from include/smallla.h): the loaded library must report it (a stale or foreign
 * libsmallla found at run time fails), the header this suite was compiled with must say the same (the one
 * version source), and the library's file must be named after it (its VERSION property follows). */
static void version(void **state) {
    (void)state;
    chk_begin();
    int ma = -1, mi = -1, pa = -1;
    smallla_get_version(&ma, &mi, &pa);
    if (ma != SMALLLA_BUILD_VERSION_MAJOR || mi != SMALLLA_BUILD_VERSION_MINOR || pa != SMALLLA_BUILD_VERSION_PATCH)
        chk_fail("the library reports version %d.%d.%d, the build is configured as %s", ma, mi, pa,
                 SMALLLA_BUILD_VERSION_STRING);
    if (SMALLLA_VERSION_MAJOR != SMALLLA_BUILD_VERSION_MAJOR || SMALLLA_VERSION_MINOR != SMALLLA_BUILD_VERSION_MINOR ||
        SMALLLA_VERSION_PATCH != SMALLLA_BUILD_VERSION_PATCH)
        chk_fail("smallla.h says %d.%d.%d, the build is configured as %s", SMALLLA_VERSION_MAJOR, SMALLLA_VERSION_MINOR,
                 SMALLLA_VERSION_PATCH, SMALLLA_BUILD_VERSION_STRING);
    Dl_info where;
    if (!dladdr((const void *)smallla_get_version, &where) || where.dli_fname == NULL)
        chk_fail("dladdr cannot tell the file of smallla_get_version");
    char *file = realpath(where.dli_fname, NULL);
    if (file == NULL) chk_fail("realpath(%s) failed", where.dli_fname);
    const char *slash = strrchr(file, '/'), *name = slash ? slash + 1 : file;
    const char *expected = "libsmallla.so." SMALLLA_BUILD_VERSION_STRING;
    int named = strcmp(name, expected) == 0;
    if (!named) print_message("      loaded library file: %s\n", file);
    free(file);
    if (!named) chk_fail("the loaded library file is %s, expected %s", name, expected);
    smallla_get_version(NULL, NULL, NULL); /* NULL allowed */
    smallla_get_version(&ma, NULL, NULL);
}

/* set/get stream; last_error set by a failing call and cleared by the next successful one. */
static void streams_and_messages(void **state) {
    (void)state;
    chk_env *env = chk_begin();
    void *s = (void *)&s;
    chk_expect_status(env, smallla_get_stream(env->h, &s), SMALLLA_SUCCESS, "get_stream");
    if (s != NULL) chk_fail("a new handle's stream is not the default (NULL)");
    chk_expect_status(env, smallla_get_stream(env->h, NULL), SMALLLA_INVALID_VALUE, "get_stream(NULL)");
    chk_expect_arg_error(env->h, "smallla_get_stream", 2);

    void *stream = chk_on_device(env) ? chk_dev_stream_create() : (void *)0x1234; /* host: stored, not used */
    if (!stream) chk_fail("cudaStreamCreate failed: %s", chk_dev_last_error());
    chk_expect_status(env, smallla_set_stream(env->h, stream), SMALLLA_SUCCESS, "set_stream");
    chk_expect_status(env, smallla_get_stream(env->h, &s), SMALLLA_SUCCESS, "get_stream");
    if (s != stream) chk_fail("get_stream returned %p, set %p", s, stream);

    /* work on the new stream (the wrappers synchronize the handle's stream) */
    chk_prec p = CHK_D;
    chk_rng rng;
    chk_rng_seed(&rng, 5);
    chk_batch *A = chk_batch_new(p, CHK_STRIDED, 4, 4, 4, 16, 3, &rng);
    chk_batch_gen(A, CHK_MT_RANDOM, &rng);
    chk_batch *A0 = chk_batch_clone(A);
    chk_ints *ipiv = chk_ints_new(4, 4, 3), *info = chk_ints_new(1, 1, 3);
    chk_expect_status(env, chk_getrf_on(env, A, ipiv, info), SMALLLA_SUCCESS, "getrf on a set stream");
    for (int b = 0; b < 3; ++b) {
        double r = chk_ratio_lu(p, 4, chk_batch_mat(A0, b), 4, chk_batch_mat(A, b), 4, chk_ints_at(ipiv, b));
        if (!(r < CHK_THRESHOLD)) chk_fail("getrf on a set stream: ratio %g", r);
    }
    /* a failing call sets the message, a successful one clears it */
    chk_expect_status(env, chk_getrf_on(env, A, ipiv, info), SMALLLA_SUCCESS, "getrf");
    chk_expect_status(env, smallla_dgetrfStridedBatched(env->h, -1, NULL, 1, 0, NULL, 0, NULL, 1),
                      SMALLLA_INVALID_VALUE, "getrf n = -1");
    const char *msg = smallla_last_error(env->h);
    if (strcmp(msg, "smallla_dgetrfStridedBatched: argument 2 (n = -1) must be >= 0") != 0)
        chk_fail("message \"%s\"", msg);
    chk_expect_status(env, smallla_dgetrfStridedBatched(env->h, 4, NULL, 3, 16, NULL, 4, NULL, 1),
                      SMALLLA_INVALID_VALUE, "getrf");
    chk_expect_arg_error(env->h, "smallla_dgetrfStridedBatched", 3);
    chk_expect_status(env, chk_getrf_on(env, A, ipiv, info), SMALLLA_SUCCESS, "getrf");
    if (smallla_last_error(env->h)[0] != '\0') chk_fail("message not cleared by a successful call");

    chk_expect_status(env, smallla_set_stream(env->h, NULL), SMALLLA_SUCCESS, "set_stream(NULL)");
    if (chk_on_device(env)) chk_dev_stream_destroy(stream);
    chk_batch_free(A);
    chk_batch_free(A0);
    chk_ints_free(ipiv);
    chk_ints_free(info);
}

/* The example message of the header, verbatim. */
static void lapack_style_message(void **state) {
    (void)state;
    chk_env *env = chk_begin();
    chk_batch *A = chk_batch_new(CHK_D, CHK_POINTERS, 4, 4, 4, 16, 1, NULL);
    chk_ints *info = chk_ints_new(1, 1, 1);
    chk_expect_status(env, chk_getrf_batched(env, CHK_D, 4, A->ptrs, 3, NULL, info->data, 1), SMALLLA_INVALID_VALUE,
                      "dgetrfBatched lda = 3");
    if (strcmp(smallla_last_error(env->h), "smallla_dgetrfBatched: argument 4 (lda = 3) must be >= max(1, n = 4)") != 0)
        chk_fail("message \"%s\"", smallla_last_error(env->h));
    chk_batch_free(A);
    chk_ints_free(info);
}

int main(int argc, char **argv) {
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(create_and_destroy),   cmocka_unit_test(null_handles),
        cmocka_unit_test(create_arguments),     cmocka_unit_test(cuda_backend_availability),
        cmocka_unit_test(status_strings),       cmocka_unit_test(version),
        cmocka_unit_test(streams_and_messages), cmocka_unit_test(lapack_style_message),
    };
    return chk_main(argc, argv, "handle", tests, sizeof tests / sizeof tests[0]);
}
