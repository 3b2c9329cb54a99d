/* The output buffer of one encode call: one allocation, grown geometrically.
 *
 * Nested messages, packed runs and map entries are written in place behind a
 * one-byte length placeholder; when the body turns out to need a longer
 * length varint the body is moved up once (rare: bodies under 128 bytes need
 * no move).  No mutable state outside the Buf the caller owns.
 */
#ifndef PROTOATTR_BUFFER_H
#define PROTOATTR_BUFFER_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <string.h>
#include <stdint.h>

typedef struct {
    char *data;
    Py_ssize_t len;
    Py_ssize_t cap;
    char inline_data[512];
} Buf;

static inline void buf_init(Buf *b) {
    b->data = b->inline_data;
    b->len = 0;
    b->cap = (Py_ssize_t)sizeof(b->inline_data);
}

static inline void buf_free(Buf *b) {
    if (b->data != b->inline_data) {
        PyMem_Free(b->data);
    }
    b->data = b->inline_data;
    b->len = 0;
    b->cap = (Py_ssize_t)sizeof(b->inline_data);
}

/* Make room for `extra` more bytes; -1 with MemoryError set on failure. */
int buf_grow(Buf *b, Py_ssize_t extra);

static inline int buf_reserve(Buf *b, Py_ssize_t extra) {
    if (extra > b->cap - b->len) {
        return buf_grow(b, extra);
    }
    return 0;
}

static inline int buf_write(Buf *b, const char *src, Py_ssize_t n) {
    if (buf_reserve(b, n) < 0) {
        return -1;
    }
    memcpy(b->data + b->len, src, (size_t)n);
    b->len += n;
    return 0;
}

static inline void buf_put_varint_unchecked(Buf *b, uint64_t v) {
    unsigned char *p = (unsigned char *)b->data + b->len;
    while (v >= 0x80) {
        *p++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *p++ = (unsigned char)v;
    b->len = (Py_ssize_t)((char *)p - b->data);
}

static inline int buf_put_varint(Buf *b, uint64_t v) {
    if (buf_reserve(b, 10) < 0) {
        return -1;
    }
    buf_put_varint_unchecked(b, v);
    return 0;
}

/* `n` bytes at `src` with their varint length in front (a string, bytes, a body). */
static inline int buf_write_delimited(Buf *b, const char *src, Py_ssize_t n) {
    if (buf_reserve(b, n + 10) < 0) {
        return -1;
    }
    buf_put_varint_unchecked(b, (uint64_t)n);
    memcpy(b->data + b->len, src, (size_t)n);
    b->len += n;
    return 0;
}

/* Start a length-delimited body: a one-byte placeholder; returns its offset. */
static inline Py_ssize_t buf_open(Buf *b) {
    /* callers reserved at least one byte */
    b->data[b->len] = 0;
    return b->len++;
}

/* Finish the body opened at `at`: write its length, moving the body if needed. */
int buf_close(Buf *b, Py_ssize_t at);

#endif
