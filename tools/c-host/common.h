/* Helpers shared by the C host programs of tools/c-host. */
#ifndef EXT_HOST_COMMON_H
#define EXT_HOST_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include "extrack.h"

/* Prints the failing call, its status and the library's message, then exits. */
static inline void ext_host_fail(const char *what, ext_status st) {
    char msg[512];
    ext_last_error_message(msg, sizeof msg);
    fprintf(stderr, "error: %s -> %s: %s\n", what, ext_status_name(st), msg);
    exit(1);
}

/* Evaluates an ext_ call and exits with its message unless it returns EXT_OK. */
#define CHECK(call)                                   \
    do {                                              \
        ext_status st_ = (call);                      \
        if (st_ != EXT_OK) ext_host_fail(#call, st_); \
    } while (0)

/* Expects an ext_ call to fail with `status`; prints the message. */
#define EXPECT_STATUS(call, status)                                                   \
    do {                                                                              \
        ext_status st_ = (call);                                                      \
        char msg_[512];                                                               \
        ext_last_error_message(msg_, sizeof msg_);                                    \
        if (st_ != (status)) {                                                        \
            fprintf(stderr, "error: %s returned %s, expected %s\n", #call,            \
                    ext_status_name(st_), ext_status_name(status));                   \
            exit(1);                                                                  \
        }                                                                             \
        printf("expected %s: %s\n", ext_status_name(st_), msg_);                      \
    } while (0)

/* Exits unless the header and the library agree on the ABI. */
static inline void ext_host_check_abi(void) {
    if (ext_abi_version() != EXT_ABI_VERSION) {
        fprintf(stderr, "error: library ABI %u, header ABI %u\n", ext_abi_version(), (unsigned)EXT_ABI_VERSION);
        exit(1);
    }
}

#endif
