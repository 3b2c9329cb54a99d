/* Growing and length-prefixing the output buffer (see buffer.h). */
#include "buffer.h"
#include "wire.h"

int buf_grow(Buf *b, Py_ssize_t extra) {
    if (extra > PY_SSIZE_T_MAX / 2 - b->len) {
        PyErr_NoMemory();
        return -1;
    }
    Py_ssize_t need = b->len + extra;
    Py_ssize_t cap = b->cap > PY_SSIZE_T_MAX / 4 ? need : b->cap * 2;
    if (cap < need) {
        cap = need;
    }
    char *data;
    if (b->data == b->inline_data) {
        data = PyMem_Malloc((size_t)cap);
        if (data != NULL) {
            memcpy(data, b->data, (size_t)b->len);
        }
    } else {
        data = PyMem_Realloc(b->data, (size_t)cap);
    }
    if (data == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    b->data = data;
    b->cap = cap;
    return 0;
}

int buf_close(Buf *b, Py_ssize_t at) {
    Py_ssize_t n = b->len - at - 1;
    if (n < 128) {
        b->data[at] = (char)n;
        return 0;
    }
    if ((uint64_t)n > 0x7FFFFFFFu) {
        PyErr_SetString(PyExc_OverflowError, "message body larger than 2 GiB");
        return -1;
    }
    int k = varint_size((uint64_t)n);
    if (buf_reserve(b, k - 1) < 0) {
        return -1;
    }
    memmove(b->data + at + k, b->data + at + 1, (size_t)n);
    unsigned char *p = (unsigned char *)b->data + at;
    uint64_t v = (uint64_t)n;
    while (v >= 0x80) {
        *p++ = (unsigned char)(v | 0x80);
        v >>= 7;
    }
    *p = (unsigned char)v;
    b->len += k - 1;
    return 0;
}
