/* Groups: proto2 messages written between a start-group and an end-group tag.
 *
 * As the Python codec does it: the end of a group is found first by skipping
 * its fields (each nested group a level deeper, bounded by max_depth), then
 * the body is decoded like a nested message one level down.  Unknown groups
 * are skipped the same way and kept byte-exact with the unknown fields.
 */
#include "engine.h"
#include "wire.h"
#include "stack.h"

/* For a group whose start tag (field `number`) was just read at message depth
 * `depth`: where its end-group tag starts (*ge) and ends (*after). */
static int group_bounds(Ctx *c, uint32_t number, const unsigned char *p, const unsigned char *end,
                        Py_ssize_t depth, const unsigned char **ge, const unsigned char **after) {
    if (depth >= c->max_depth || depth >= NATIVE_MAX_DEPTH || stack_low()) {
        return -1;  /* Python: "groups nested deeper than max_depth" (or a small stack) */
    }
    for (;;) {
        if (p >= end) {
            return -1;
        }
        const unsigned char *q = p;
        uint64_t inner;
        if (read_tag(&q, end, &inner) < 0) {
            return -1;
        }
        if ((inner & 7) == WT_EGROUP) {
            if ((inner >> 3) != number) {
                return -1;
            }
            *ge = p;
            *after = q;
            return 0;
        }
        if (skip_value(c, inner, &q, end, depth + 1) < 0) {
            return -1;
        }
        p = q;
    }
}

int skip_group(Ctx *c, uint32_t number, const unsigned char **p, const unsigned char *end,
               Py_ssize_t depth) {
    const unsigned char *ge, *after;
    if (group_bounds(c, number, *p, end, depth, &ge, &after) < 0) {
        return -1;
    }
    *p = after;
    return 0;
}

int read_group_field(Ctx *c, const Field *f, int wt, const unsigned char **p,
                     const unsigned char *end, Py_ssize_t depth, PyObject **slot) {
    if (wt != WT_SGROUP) {
        return 0;  /* another wire type: an unknown field */
    }
    const unsigned char *ge, *after;
    if (group_bounds(c, f->number, *p, end, depth, &ge, &after) < 0) {
        return -1;
    }
    /* a singular group seen again merges into the first, as a message does */
    PyObject *base = NULL;
    if (f->label != L_REPEATED && *slot != NULL && *slot != Py_None) {
        base = *slot;
        if (takes_merged(f)) {  /* into the values so far, built with the holder */
            if (merge_later(c, &f->value, *p, ge, depth + 1, slot) < 0) {
                return -1;
            }
            *p = after;
            return 1;
        }
    }
    PyObject *v = decode_sub(c, &f->value, *p, ge, depth + 1, base);
    if (v == NULL) {
        return -1;
    }
    if (f->label == L_REPEATED) {
        int r = PyList_Append(*slot, v);
        Py_DECREF(v);
        if (r < 0) {
            return -1;
        }
    } else {
        Py_XSETREF(*slot, v);
    }
    *p = after;
    return 1;
}

int write_group(EngineState *st, const ValueSpec *vs, const unsigned char *tag, int taglen,
                PyObject *v, Buf *b, int depth) {
    if (buf_write(b, (const char *)tag, taglen) < 0) {
        return -1;
    }
    if (vs->sub_native) {
        Plan *sub = (Plan *)vs->sub;
        if (v == Py_None || !plan_usable(sub) || encode_message(st, sub, v, b, depth + 1) < 0) {
            return -1;
        }
    } else {
        PyObject *body = encode_callback(st, vs, v);
        if (body == NULL) {
            return -1;
        }
        int r = buf_write(b, PyBytes_AS_STRING(body), PyBytes_GET_SIZE(body));
        Py_DECREF(body);
        if (r < 0) {
            return -1;
        }
    }
    /* the end-group tag: the start tag with wire type 4 (the low bits of its first byte) */
    if (buf_reserve(b, taglen) < 0) {
        return -1;
    }
    memcpy(b->data + b->len, tag, (size_t)taglen);
    b->data[b->len] = (char)(tag[0] + 1);
    b->len += taglen;
    return 0;
}
