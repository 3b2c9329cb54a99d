/* The C stack left to the running thread.
 *
 * The engine recurses on the C stack, about 1 KiB per level of nesting, and so
 * does a native contract calling back a Python codec that calls the engine
 * again.  A thread's stack may be small (threading.stack_size(), musl's
 * 128 KiB default), where the generated Python codecs (whose Python-to-Python
 * calls use no C stack) go deeper than the engine can: the engine checks the
 * stack instead of crashing.  The bound is found once per thread (thread-local,
 * not shared); where the platform cannot tell, there is no check.
 */
#ifndef PROTOATTR_STACK_H
#define PROTOATTR_STACK_H

#include <stdint.h>

/* 1 when the caller is within the margin (64 KiB, or a quarter of a smaller
 * stack) of the end of its thread's stack: the engine declines, an entry point
 * raises RecursionError (which the model reports as "nested too deeply"). */
int stack_low(void);

#endif
