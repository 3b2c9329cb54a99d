/* Streams of length-prefixed messages in C: framing and batching.
 *
 * protoattr/_stream.py owns the streams themselves (which reads are allowed,
 * where the stream is left, every error message); this file only removes the
 * per-item Python work from the common case:
 *
 *   FrameReader  frames items out of a chunk of bytes the Python side read and
 *                decodes each with a plan, straight from the chunk (no slice).
 *                As an iterator it asks `refill(consumed, yielded, final)` for
 *                the next chunk; `take(chunk, pos, limit)` is the same loop for
 *                callers that bring chunks themselves (the async reader).
 *   encode_frames  pulls items from an iterator and writes each one's frame
 *                (tag, prefix, body) into one buffer, returning a batch.
 *
 * Anything unusual at a frame — a multi-byte or another tag, a prefix or body
 * cut by the chunk's end, a length over the limit, a plan that fails or is no
 * longer valid — is not handled here: the reader stops there ("stuck") and the
 * Python side reads that item with its exact reader, which gives the same item
 * or the same DecodeError as before.  The writer hands such an item to a Python
 * `frame(obj)` callable.  So both stay behaviour-for-behaviour the Python code.
 */
#include "plan.h"
#include "engine.h"

#include <structmember.h>

enum { S_BASE128 = 1, S_FIXED32 = 2, S_FIXED32_BE = 3 };

/* Items past this size pause the collector while they decode, as entry.c does. */
#define GC_PAUSE_BYTES 4096

typedef struct {
    PyObject_HEAD
    Plan *plan;
    PyObject *refill;         /* refill(consumed, yielded, final) -> bytes | (item,) | None */
    int style;
    unsigned char tag[5];     /* the expected tag, as the writer writes it; taglen 0: none */
    int taglen;
    Py_ssize_t max_size;
    PyObject *chunk;          /* bytes being framed, or NULL */
    Py_ssize_t pos;           /* next unread byte of chunk */
    Py_ssize_t yielded;       /* items taken from chunk since the last refill call */
    int done;
} FrameReader;

/* The length of the frame at [p, end): 1 with body and len set, 0 when this frame is
 * not for the fast path (the caller stops and lets Python read it). */
static int frame_at(const FrameReader *r, const unsigned char *p, const unsigned char *end,
                    const unsigned char **body, Py_ssize_t *len) {
    if (r->taglen) {
        if (end - p < r->taglen || memcmp(p, r->tag, (size_t)r->taglen) != 0) {
            return 0;
        }
        p += r->taglen;
    }
    uint64_t n;
    if (r->style == S_BASE128) {
        if (p < end && *p < 0x80) {
            n = *p++;
        } else {
            n = 0;
            int shift = 0;
            for (;;) {
                if (p >= end || shift > 56) {
                    return 0;  /* cut by the chunk, or longer than the fast path takes */
                }
                unsigned char b = *p++;
                n |= (uint64_t)(b & 0x7f) << shift;
                if (b < 0x80) {
                    break;
                }
                shift += 7;
            }
        }
    } else {
        if (end - p < 4) {
            return 0;
        }
        n = r->style == S_FIXED32
                ? ((uint64_t)p[0] | (uint64_t)p[1] << 8 | (uint64_t)p[2] << 16
                   | (uint64_t)p[3] << 24)
                : ((uint64_t)p[3] | (uint64_t)p[2] << 8 | (uint64_t)p[1] << 16
                   | (uint64_t)p[0] << 24);
        p += 4;
    }
    if (n > (uint64_t)r->max_size || n > (uint64_t)(end - p)) {
        return 0;
    }
    *body = p;
    *len = (Py_ssize_t)n;
    return 1;
}

/* The next item of r->chunk (new reference), or NULL: with an exception that must
 * propagate, or without one when the Python side has to read this frame. */
static PyObject *take_one(EngineState *st, FrameReader *r, PyObject *chunk, Py_ssize_t *pos) {
    Plan *plan = r->plan;
    if (!plan->ready || plan->invalid) {
        return NULL;
    }
    const unsigned char *base = (const unsigned char *)PyBytes_AS_STRING(chunk);
    const unsigned char *body;
    Py_ssize_t len;
    if (!frame_at(r, base + *pos, base + PyBytes_GET_SIZE(chunk), &body, &len)) {
        return NULL;
    }
    Py_ssize_t start = body - base;
    int pause = len > GC_PAUSE_BYTES;
    if (pause) {
        engine_gc_pause(st);
    }
    PyObject *out = engine_decode(st, plan, chunk, start, start + len, 0);
    if (pause) {
        engine_gc_resume(st);
    }
    if (out == NULL) {
        /* An ordinary failure, or a final one (the model's message bound crossed):
         * the exact reader decodes the item again and raises the error with its
         * index and stream offset.  KeyboardInterrupt and the like propagate. */
        if (!engine_may_fall_back() && PyErr_ExceptionMatches(PyExc_Exception)) {
            PyErr_Clear();
        }
        return NULL;
    }
    *pos = start + len;
    return out;
}

static PyObject *reader_next(FrameReader *r) {
    EngineState *st = engine_state_of_type(Py_TYPE(r));
    while (!r->done) {
        if (r->chunk != NULL) {
            PyObject *out = take_one(st, r, r->chunk, &r->pos);
            if (out != NULL) {
                r->yielded++;
                return out;
            }
            if (PyErr_Occurred()) {
                return NULL;
            }
        }
        if (r->refill == Py_None) {
            return NULL;
        }
        Py_ssize_t consumed = r->chunk == NULL ? 0 : r->pos;
        PyObject *got = PyObject_CallFunction(r->refill, "nnO", consumed, r->yielded, Py_False);
        Py_CLEAR(r->chunk);
        r->pos = 0;
        r->yielded = 0;
        if (got == NULL) {
            r->done = 1;  /* like a generator that raised: finished */
            return NULL;
        }
        if (PyBytes_CheckExact(got)) {
            r->chunk = got;
            continue;
        }
        if (PyTuple_CheckExact(got) && PyTuple_GET_SIZE(got) == 1) {
            PyObject *item = PyTuple_GET_ITEM(got, 0);
            Py_INCREF(item);
            Py_DECREF(got);
            return item;
        }
        Py_DECREF(got);
        r->done = 1;
    }
    return NULL;
}

/* Tell the Python side where reading stopped, so it can put the stream back there. */
static PyObject *reader_close(FrameReader *r, PyObject *unused) {
    if (!r->done) {
        r->done = 1;
        if (r->refill != Py_None) {
            Py_ssize_t consumed = r->chunk == NULL ? 0 : r->pos;
            PyObject *got =
                PyObject_CallFunction(r->refill, "nnO", consumed, r->yielded, Py_True);
            Py_CLEAR(r->chunk);
            if (got == NULL) {
                return NULL;
            }
            Py_DECREF(got);
        }
    }
    Py_CLEAR(r->chunk);
    Py_RETURN_NONE;
}

static void reader_finalize(PyObject *self) {
    PyObject *exc_type, *exc_value, *exc_tb;
    PyErr_Fetch(&exc_type, &exc_value, &exc_tb);
    PyObject *res = reader_close((FrameReader *)self, NULL);
    if (res == NULL) {
        PyErr_WriteUnraisable(self);
    } else {
        Py_DECREF(res);
    }
    PyErr_Restore(exc_type, exc_value, exc_tb);
}

/* take(chunk, pos, limit) -> (items, pos): up to `limit` items framed from
 * chunk[pos:]; it stops early where the Python side must read the next frame. */
static PyObject *reader_take(FrameReader *r, PyObject *args) {
    PyObject *chunk;
    Py_ssize_t pos, limit;
    if (!PyArg_ParseTuple(args, "O!nn:take", &PyBytes_Type, &chunk, &pos, &limit)) {
        return NULL;
    }
    if (pos < 0 || pos > PyBytes_GET_SIZE(chunk)) {
        PyErr_SetString(PyExc_ValueError, "take: pos outside the chunk");
        return NULL;
    }
    EngineState *st = engine_state_of_type(Py_TYPE(r));
    PyObject *items = PyList_New(0);
    if (items == NULL) {
        return NULL;
    }
    for (Py_ssize_t i = 0; i < limit; i++) {
        PyObject *out = take_one(st, r, chunk, &pos);
        if (out == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(items);
                return NULL;
            }
            break;
        }
        int rc = PyList_Append(items, out);
        Py_DECREF(out);
        if (rc < 0) {
            Py_DECREF(items);
            return NULL;
        }
    }
    return Py_BuildValue("Nn", items, pos);
}

static PyObject *reader_new(PyTypeObject *tp, PyObject *args, PyObject *kwds) {
    EngineState *st = engine_state_of_type(tp);
    PyObject *plan, *refill;
    int style;
    Py_buffer tag;
    Py_ssize_t max_size;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "FrameReader(plan, style, tag, max_size, refill)");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!iy*nO:FrameReader", st->plan_type, &plan, &style, &tag,
                          &max_size, &refill)) {
        return NULL;
    }
    if (style < S_BASE128 || style > S_FIXED32_BE || tag.len > 5 || max_size < 0
        || (tag.len && style != S_BASE128) || (refill != Py_None && !PyCallable_Check(refill))) {
        PyBuffer_Release(&tag);
        PyErr_SetString(PyExc_ValueError, "FrameReader: bad framing");
        return NULL;
    }
    FrameReader *r = (FrameReader *)tp->tp_alloc(tp, 0);
    if (r == NULL) {
        PyBuffer_Release(&tag);
        return NULL;
    }
    Py_INCREF(plan);
    r->plan = (Plan *)plan;
    Py_INCREF(refill);
    r->refill = refill;
    r->style = style;
    memcpy(r->tag, tag.buf, (size_t)tag.len);
    r->taglen = (int)tag.len;
    r->max_size = max_size;
    PyBuffer_Release(&tag);
    return (PyObject *)r;
}

static int reader_traverse(FrameReader *r, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(r));
    Py_VISIT(r->plan);
    Py_VISIT(r->refill);
    return 0;
}

static int reader_clear(FrameReader *r) {
    Py_CLEAR(r->plan);
    Py_CLEAR(r->refill);
    Py_CLEAR(r->chunk);
    return 0;
}

static void reader_dealloc(FrameReader *r) {
    PyTypeObject *tp = Py_TYPE(r);
    if (PyObject_CallFinalizerFromDealloc((PyObject *)r) < 0) {
        return;  /* resurrected */
    }
    PyObject_GC_UnTrack(r);
    reader_clear(r);
    tp->tp_free((PyObject *)r);
    Py_DECREF(tp);
}

static PyObject *reader_iter(PyObject *self) {
    Py_INCREF(self);
    return self;
}

static PyMethodDef reader_methods[] = {
    {"close", (PyCFunction)reader_close, METH_NOARGS,
     "Stop reading; the stream is put back right after the last item yielded."},
    {"take", (PyCFunction)reader_take, METH_VARARGS,
     "take(chunk, pos, limit) -> (items, pos): frame and decode items from chunk[pos:]."},
    {NULL, NULL, 0, NULL},
};

static PyType_Slot reader_slots[] = {
    {Py_tp_dealloc, reader_dealloc},
    {Py_tp_finalize, reader_finalize},
    {Py_tp_traverse, reader_traverse},
    {Py_tp_clear, reader_clear},
    {Py_tp_iter, reader_iter},
    {Py_tp_iternext, reader_next},
    {Py_tp_methods, reader_methods},
    {Py_tp_new, reader_new},
    {Py_tp_doc, "Items framed and decoded in C from chunks the Python side reads."},
    {0, NULL},
};

static PyType_Spec reader_spec = {
    .name = "protoattr._native._engine.FrameReader",
    .basicsize = sizeof(FrameReader),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = reader_slots,
};

/* ---- writing ------------------------------------------------------------------ */

/* The frame of obj appended to b by the plan: 0, or -1 with b as it was (the
 * caller then asks the Python side; an exception left set must propagate). */
static int encode_frame(EngineState *st, Plan *plan, PyObject *obj, Buf *b, int style,
                        const unsigned char *tag, Py_ssize_t taglen) {
    Py_ssize_t start = b->len;
    if (buf_reserve(b, taglen + 4) < 0) {
        return -1;
    }
    if (style == S_BASE128) {
        memcpy(b->data + b->len, tag, (size_t)taglen);
        b->len += taglen;
        Py_ssize_t at = buf_open(b);
        if (encode_message(st, plan, obj, b, 0) == 0 && buf_close(b, at) == 0) {
            return 0;
        }
    } else {
        Py_ssize_t at = b->len;
        b->len += 4;
        if (encode_message(st, plan, obj, b, 0) == 0) {
            Py_ssize_t n = b->len - at - 4;
            if ((uint64_t)n <= 0xFFFFFFFFu) {  /* else Python's error for the prefix */
                unsigned char *q = (unsigned char *)b->data + at;
                uint32_t v = (uint32_t)n;
                for (int i = 0; i < 4; i++) {
                    q[style == S_FIXED32 ? i : 3 - i] = (unsigned char)(v >> (8 * i));
                }
                return 0;
            }
        }
    }
    b->len = start;
    return -1;
}

/* encode_frames(plan_for, frame, iterator, style, tag, max_bytes)
 *   -> (batch: bytes, count, done: bool, error: BaseException | None)
 *
 * Frames of the iterator's items until the batch reaches max_bytes or the
 * iterator ends (done).  plan_for(type) gives the plan for items of that type
 * (or None); items without a plan, or that their plan does not take, go to
 * frame(obj), which returns their frame or raises.  An exception (from an item
 * or from the iterator) ends the batch: it is returned, not raised, with the
 * frames of the items before it, so the caller writes those and then raises. */
static PyObject *encode_frames(PyObject *module, PyObject *args) {
    EngineState *st = PyModule_GetState(module);
    PyObject *plan_for, *frame, *it;
    int style;
    Py_buffer tag;
    Py_ssize_t max_bytes;
    if (!PyArg_ParseTuple(args, "OOOiy*n:encode_frames", &plan_for, &frame, &it, &style, &tag,
                          &max_bytes)) {
        return NULL;
    }
    if (!PyIter_Check(it) || style < S_BASE128 || style > S_FIXED32_BE || tag.len > 5) {
        PyBuffer_Release(&tag);
        PyErr_SetString(PyExc_ValueError, "encode_frames: bad arguments");
        return NULL;
    }
    Buf b;
    buf_init(&b);
    PyObject *last_type = NULL, *last_plan = NULL, *error = NULL, *out = NULL;
    Py_ssize_t count = 0;
    int done = 0;
    while (b.len < max_bytes) {
        PyObject *obj = PyIter_Next(it);
        if (obj == NULL) {
            done = !PyErr_Occurred();
            break;
        }
        PyObject *tp = (PyObject *)Py_TYPE(obj);
        if (tp != last_type) {
            PyObject *p = PyObject_CallOneArg(plan_for, tp);
            if (p == NULL) {
                Py_DECREF(obj);
                break;
            }
            Py_INCREF(tp);
            Py_XSETREF(last_type, tp);
            Py_XSETREF(last_plan, Py_IS_TYPE(p, st->plan_type) ? p : NULL);
            if (last_plan == NULL) {
                Py_DECREF(p);
            }
        }
        Plan *plan = (Plan *)last_plan;
        int rc = -1;
        if (plan != NULL && plan->ready && !plan->invalid) {
            rc = encode_frame(st, plan, obj, &b, style, tag.buf, tag.len);
            if (rc < 0 && !engine_may_fall_back()) {
                Py_DECREF(obj);
                break;
            }
        }
        if (rc < 0) {  /* the Python path: the same bytes, or the error */
            PyObject *f = PyObject_CallOneArg(frame, obj);
            if (f == NULL) {
                Py_DECREF(obj);
                break;
            }
            if (!PyBytes_Check(f)) {
                Py_DECREF(f);
                Py_DECREF(obj);
                PyErr_SetString(PyExc_TypeError, "encode_frames: frame() must return bytes");
                break;
            }
            rc = buf_write(&b, PyBytes_AS_STRING(f), PyBytes_GET_SIZE(f));
            Py_DECREF(f);
            if (rc < 0) {
                Py_DECREF(obj);
                break;
            }
        }
        Py_DECREF(obj);
        count++;
    }
    if (PyErr_Occurred()) {
        PyObject *et, *ev, *etb;
        PyErr_Fetch(&et, &ev, &etb);
        PyErr_NormalizeException(&et, &ev, &etb);
        if (etb != NULL && ev != NULL) {
            PyException_SetTraceback(ev, etb);
        }
        Py_XDECREF(et);
        Py_XDECREF(etb);
        error = ev;  /* owned (NULL only if normalizing failed: then no error is reported) */
    }
    PyObject *batch = PyBytes_FromStringAndSize(b.data, b.len);
    if (batch != NULL) {
        out = Py_BuildValue("NnOO", batch, count, done ? Py_True : Py_False,
                            error != NULL ? error : Py_None);
    }
    Py_XDECREF(error);
    Py_XDECREF(last_type);
    Py_XDECREF(last_plan);
    buf_free(&b);
    PyBuffer_Release(&tag);
    return out;
}

static PyMethodDef stream_functions[] = {
    {"encode_frames", encode_frames, METH_VARARGS,
     "encode_frames(plan_for, frame, iterator, style, tag, max_bytes) -> "
     "(batch, count, done, error): length-prefixed frames of the iterator's items."},
    {NULL, NULL, 0, NULL},
};

int engine_add_stream(PyObject *module) {
    PyObject *tp = PyType_FromModuleAndSpec(module, &reader_spec, NULL);
    if (tp == NULL) {
        return -1;
    }
    int r = PyModule_AddObjectRef(module, "FrameReader", tp);
    Py_DECREF(tp);
    if (r < 0) {
        return -1;
    }
    return PyModule_AddFunctions(module, stream_functions);
}
