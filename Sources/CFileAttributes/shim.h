#ifndef LAUNCHPOLICY_CFILEATTRIBUTES_SHIM_H
#define LAUNCHPOLICY_CFILEATTRIBUTES_SHIM_H
// Extended attributes by file descriptor, with one signature on every system: Darwin's functions take a position and
// options that Linux's and Android's do not. Swift's Glibc module leaves <sys/xattr.h> out.
#include <sys/types.h>
#include <sys/xattr.h>

static inline ssize_t launchpolicy_flistxattr(int descriptor, char *names, size_t size) {
#ifdef __APPLE__
    return flistxattr(descriptor, names, size, 0);
#else
    return flistxattr(descriptor, names, size);
#endif
}

static inline ssize_t launchpolicy_fgetxattr(int descriptor, const char *name, void *value, size_t size) {
#ifdef __APPLE__
    return fgetxattr(descriptor, name, value, size, 0, 0);
#else
    return fgetxattr(descriptor, name, value, size);
#endif
}

static inline int launchpolicy_fsetxattr(int descriptor, const char *name, const void *value, size_t size) {
#ifdef __APPLE__
    return fsetxattr(descriptor, name, value, size, 0, 0);
#else
    return fsetxattr(descriptor, name, value, size, 0);
#endif
}

#endif
