/* The running thread's stack bound (see stack.h). */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE  /* pthread_getattr_np */
#endif
#include "stack.h"

#include <stddef.h>

#define STACK_MARGIN ((size_t)64 * 1024)

#if defined(_WIN32)
#include <windows.h>
#elif defined(__linux__) || defined(__APPLE__) || defined(__FreeBSD__)
#include <pthread.h>
#if defined(__FreeBSD__)
#include <pthread_np.h>
#endif
#endif

#if defined(_MSC_VER)
#define THREAD_LOCAL __declspec(thread)
#else
#define THREAD_LOCAL _Thread_local
#endif

/* The lowest address the engine may reach in this thread: 0 not looked up yet,
 * 1 unknown (no check). */
static THREAD_LOCAL uintptr_t low_bound;

static uintptr_t with_margin(uintptr_t low, size_t size) {
    size_t margin = size / 4 < STACK_MARGIN ? size / 4 : STACK_MARGIN;
    return low + margin;
}

static uintptr_t find_low_bound(void) {
#if defined(_WIN32) && defined(_WIN32_WINNT) && _WIN32_WINNT >= 0x0602
    ULONG_PTR low, high;
    GetCurrentThreadStackLimits(&low, &high);
    return with_margin((uintptr_t)low, (size_t)(high - low));
#elif defined(__APPLE__)
    pthread_t self = pthread_self();
    uintptr_t top = (uintptr_t)pthread_get_stackaddr_np(self);
    size_t size = pthread_get_stacksize_np(self);
    return with_margin(top - size, size);
#elif defined(__linux__) || defined(__FreeBSD__)
    pthread_attr_t attr;
    void *addr;
    size_t size;
#if defined(__FreeBSD__)
    if (pthread_attr_init(&attr) != 0) return 1;
    if (pthread_attr_get_np(pthread_self(), &attr) != 0) {
        pthread_attr_destroy(&attr);
        return 1;
    }
#else
    if (pthread_getattr_np(pthread_self(), &attr) != 0) return 1;
#endif
    int r = pthread_attr_getstack(&attr, &addr, &size);
    pthread_attr_destroy(&attr);
    if (r != 0 || addr == NULL || size == 0) return 1;
    return with_margin((uintptr_t)addr, size);
#else
    return 1;
#endif
}

int stack_low(void) {
    char here;
    uintptr_t low = low_bound;
    if (low == 0) {
        low = find_low_bound();
        low_bound = low;
    }
    return low > 1 && (uintptr_t)&here < low;
}
