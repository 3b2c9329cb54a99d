/* The protobuf wire format: varints, zigzag, little-endian fixed values.
 *
 * Pure functions over byte ranges; every read is bounded by an explicit end
 * pointer and reports failure instead of reading past it.
 */
#ifndef PROTOATTR_WIRE_H
#define PROTOATTR_WIRE_H

#include <stdint.h>
#include <string.h>

enum { WT_VARINT = 0, WT_I64 = 1, WT_LEN = 2, WT_SGROUP = 3, WT_EGROUP = 4, WT_I32 = 5 };

#define MAX_FIELD_NUMBER 536870911u

static inline int varint_size(uint64_t v) {
    int n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

/* Read a varint at *p (before end) as the Python backend does: at most ten
 * bytes, bits above 64 dropped.  Returns 0 and advances *p, or -1 when the
 * varint is truncated or longer than ten bytes. */
static inline int read_varint(const unsigned char **p, const unsigned char *end, uint64_t *out) {
    const unsigned char *q = *p;
    if (q < end && *q < 0x80) {
        *out = *q;
        *p = q + 1;
        return 0;
    }
    uint64_t result = 0;
    int shift = 0;
    for (int i = 0; i < 10; i++) {
        if (q >= end) {
            return -1;
        }
        unsigned char byte = *q++;
        if (shift < 64) {
            result |= (uint64_t)(byte & 0x7F) << shift;
        }
        if (byte < 0x80) {
            *out = result;
            *p = q;
            return 0;
        }
        shift += 7;
    }
    return -1;
}

/* Read a tag as the Python backend (and upb) does: a varint of at most five bytes
 * whose value fits 32 bits.  -1 for anything else (the Python codec reports it). */
static inline int read_tag(const unsigned char **p, const unsigned char *end, uint64_t *out) {
    const unsigned char *q = *p;
    if (read_varint(p, end, out) < 0 || *p - q > 5 || *out > 0xFFFFFFFFu) {
        return -1;
    }
    return 0;
}

static inline uint32_t load_le32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t load_le64(const unsigned char *p) {
    return (uint64_t)load_le32(p) | (uint64_t)load_le32(p + 4) << 32;
}

static inline void store_le32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static inline void store_le64(unsigned char *p, uint64_t v) {
    store_le32(p, (uint32_t)v);
    store_le32(p + 4, (uint32_t)(v >> 32));
}

static inline uint64_t zigzag64(int64_t v) {
    return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63);
}

static inline uint32_t zigzag32(int32_t v) {
    return ((uint32_t)v << 1) ^ (uint32_t)(v >> 31);
}

static inline int64_t unzigzag64(uint64_t v) {
    return (int64_t)(v >> 1) ^ -(int64_t)(v & 1);
}

static inline int32_t unzigzag32(uint32_t v) {
    return (int32_t)(v >> 1) ^ -(int32_t)(v & 1);
}

#endif
