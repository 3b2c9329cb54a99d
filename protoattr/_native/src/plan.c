/* The Plan type: setup from plan.py's tuples, the encode/decode entry points
 * Python calls, and the Python fallback behind them. */
#include "engine.h"
#include "convert.h"
#include "bcl.h"

#include <structmember.h>

#include "stack.h"

static int wire_type_of(int kind) {
    switch (kind) {
    case K_INT32: case K_INT64: case K_UINT32: case K_UINT64: case K_SINT32: case K_SINT64:
    case K_BOOL: case K_ENUM:
        return 0;
    case K_FIXED64: case K_SFIXED64: case K_DOUBLE:
        return 1;
    case K_FIXED32: case K_SFIXED32: case K_FLOAT:
        return 5;
    default:
        return 2;
    }
}

static void value_clear(ValueSpec *v) {
    Py_CLEAR(v->sub);
    Py_CLEAR(v->enum_members);
    Py_CLEAR(v->helper_encode);
    Py_CLEAR(v->helper_decode);
    Py_CLEAR(v->zero);
    convert_clear(v);
}

static int value_traverse(ValueSpec *v, visitproc visit, void *arg) {
    Py_VISIT(v->sub);
    Py_VISIT(v->enum_members);
    Py_VISIT(v->helper_encode);
    Py_VISIT(v->helper_decode);
    Py_VISIT(v->zero);
    return convert_traverse(v, visit, arg);
}

static PyObject *none_to_null(PyObject *o) {
    if (o == Py_None) {
        return NULL;
    }
    Py_INCREF(o);
    return o;
}

static int value_setup(ValueSpec *v, PyObject *spec) {
    /* (kind, sub, sub_native, enum_members, enum_plain, closed, helper_encode,
     *  helper_decode, zero, conv, to_wire, from_wire, domain) */
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 13) {
        PyErr_SetString(PyExc_TypeError, "plan: a value spec is a 13-tuple");
        return -1;
    }
    v->kind = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 0));
    int group = v->kind == K_GROUP_SPEC;  /* a message written as a group */
    v->kind = group ? K_MESSAGE : v->kind;
    if (v->kind < K_INT32 || v->kind >= K_LAST) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "plan: unknown kind");
        }
        return -1;
    }
    v->wire_type = group ? 3 /* WT_SGROUP */ : wire_type_of(v->kind);
    v->sub = none_to_null(PyTuple_GET_ITEM(spec, 1));
    v->sub_native = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 2));
    v->enum_members = none_to_null(PyTuple_GET_ITEM(spec, 3));
    v->enum_plain = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 4));
    v->closed = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 5));
    v->helper_encode = none_to_null(PyTuple_GET_ITEM(spec, 6));
    v->helper_decode = none_to_null(PyTuple_GET_ITEM(spec, 7));
    v->zero = none_to_null(PyTuple_GET_ITEM(spec, 8));
    if (convert_setup(v, spec, 9) < 0) {
        return -1;
    }
    if (v->kind == K_MESSAGE && v->sub == NULL) {
        PyErr_SetString(PyExc_ValueError, "plan: a message value needs its plan or codec");
        return -1;
    }
    if (v->enum_members != NULL && !PyDict_Check(v->enum_members)) {
        PyErr_SetString(PyExc_TypeError, "plan: enum members must be a dict");
        return -1;
    }
    if ((v->kind == K_TIMESTAMP || v->kind == K_DURATION || is_bcl_kind(v->kind))
        && (v->helper_encode == NULL || v->helper_decode == NULL)) {
        PyErr_SetString(PyExc_ValueError, "plan: time values need their helpers");
        return -1;
    }
    return bcl_setup(v);
}

/* Whether values of `v` are datetime/date/timedelta objects, which the engine reads and
 * builds through the datetime C API (loaded when such a plan is set up). */
static int holds_datetimes(const ValueSpec *v) {
    return v->kind == K_TIMESTAMP || v->kind == K_DURATION || v->kind == K_BCL_DATETIME
           || v->kind == K_BCL_TIMESPAN || v->conv == CONV_DATE
           || v->conv == CONV_DATETIME_TICKS || v->conv == CONV_TIMESPAN_TICKS;
}

int engine_need_datetime(EngineState *st) {
    if (st->datetime_api == NULL) {
        st->datetime_api = PyCapsule_Import("datetime.datetime_CAPI", 0);
        if (st->datetime_api == NULL) {
            return -1;
        }
    }
    return 0;
}

static int copy_tag(PyObject *b, unsigned char *dst, int *len) {
    if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) < 1 || PyBytes_GET_SIZE(b) > 5) {
        PyErr_SetString(PyExc_ValueError, "plan: tag bytes must be 1..5 bytes");
        return -1;
    }
    memcpy(dst, PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b));
    *len = (int)PyBytes_GET_SIZE(b);
    return 0;
}

static int field_setup(Field *f, PyObject *spec) {
    /* (name, number, label, packed, value, key, tag, len_tag, enc_mode, default_cmp,
     *  init_mode, init_value, absent_mode, absent_value, container, oneof) */
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 16) {
        PyErr_SetString(PyExc_TypeError, "plan: a field spec is a 16-tuple");
        return -1;
    }
    PyObject *name = PyTuple_GET_ITEM(spec, 0);
    if (!PyUnicode_CheckExact(name)) {
        PyErr_SetString(PyExc_TypeError, "plan: field names are str");
        return -1;
    }
    Py_INCREF(name);
    PyUnicode_InternInPlace(&name);
    f->name = name;
    unsigned long number = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(spec, 1));
    if (PyErr_Occurred() || number < 1 || number > 536870911ul) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "plan: field number out of range");
        }
        return -1;
    }
    f->number = (uint32_t)number;
    f->label = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 2));
    f->packed = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 3));
    if (value_setup(&f->value, PyTuple_GET_ITEM(spec, 4)) < 0) {
        return -1;
    }
    if (f->label == L_MAP) {
        if (value_setup(&f->key, PyTuple_GET_ITEM(spec, 5)) < 0) {
            return -1;
        }
    }
    if (copy_tag(PyTuple_GET_ITEM(spec, 6), f->tag, &f->taglen) < 0
        || copy_tag(PyTuple_GET_ITEM(spec, 7), f->len_tag, &f->len_taglen) < 0) {
        return -1;
    }
    f->enc_mode = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 8));
    PyObject *d = PyTuple_GET_ITEM(spec, 9);
    switch (f->value.kind) {
    case K_UINT32: case K_UINT64: case K_FIXED32: case K_FIXED64:
        if (PyLong_Check(d)) {
            f->def_u = PyLong_AsUnsignedLongLong(d);
            f->has_int_default = 1;
        }
        break;
    case K_INT32: case K_INT64: case K_SINT32: case K_SINT64: case K_SFIXED32:
    case K_SFIXED64: case K_ENUM:
        if (PyLong_Check(d)) {
            f->def_i = PyLong_AsLongLong(d);
            f->has_int_default = 1;
        }
        break;
    case K_FLOAT: case K_DOUBLE:
        if (PyBytes_Check(d) && PyBytes_GET_SIZE(d) == (f->value.kind == K_FLOAT ? 4 : 8)) {
            memcpy(f->def_fbytes, PyBytes_AS_STRING(d), (size_t)PyBytes_GET_SIZE(d));
        }
        break;
    case K_BOOL:
        f->def_bool = PyObject_IsTrue(d);
        break;
    case K_STRING: case K_BYTES:
    case K_BCL_TIMESPAN: case K_BCL_DECIMAL: case K_BCL_GUID:  /* compared with == */
        f->def_obj = none_to_null(d);
        break;
    default:
        break;
    }
    if (PyErr_Occurred()) {
        return -1;
    }
    if (f->enc_mode == ENC_DEFAULT && f->label != L_REPEATED && f->label != L_MAP) {
        int kind = f->value.kind;
        int ok = 1;
        if (kind == K_STRING || kind == K_BYTES) {
            ok = f->def_obj != NULL && PyBytes_CheckExact(f->def_obj);
        } else if (is_bcl_kind(kind)) {
            ok = f->def_obj != NULL && kind != K_BCL_DATETIME;
        } else if (kind != K_FLOAT && kind != K_DOUBLE && kind != K_BOOL) {
            ok = f->has_int_default;
        }
        if (!ok || f->label != L_SINGULAR) {
            PyErr_SetString(PyExc_ValueError, "plan: a skip-if-default field needs its default");
            return -1;
        }
    }
    f->init_mode = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 10));
    f->init_value = none_to_null(PyTuple_GET_ITEM(spec, 11));
    if (f->init_mode == INIT_VALUE && f->init_value == NULL) {
        f->init_value = Py_None;
        Py_INCREF(Py_None);
    }
    f->absent_mode = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 12));
    f->absent_value = none_to_null(PyTuple_GET_ITEM(spec, 13));
    f->container = none_to_null(PyTuple_GET_ITEM(spec, 14));
    f->oneof = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 15));
    if (PyErr_Occurred()) {
        return -1;
    }
    if (f->oneof < 0 || f->oneof > MAX_ONEOFS || (f->oneof && f->label != L_OPTIONAL)) {
        PyErr_SetString(PyExc_ValueError, "plan: bad oneof group");
        return -1;
    }
    if (f->absent_mode == ABSENT_FACTORY && f->absent_value == NULL) {
        PyErr_SetString(PyExc_ValueError, "plan: a factory default needs its factory");
        return -1;
    }
    return 0;
}

static void field_clear(Field *f) {
    Py_CLEAR(f->name);
    value_clear(&f->value);
    value_clear(&f->key);
    Py_CLEAR(f->def_obj);
    Py_CLEAR(f->init_value);
    Py_CLEAR(f->absent_value);
    Py_CLEAR(f->container);
}

static void plan_release(Plan *self) {
    self->ready = 0;
    if (self->fields != NULL) {
        for (Py_ssize_t i = 0; i < self->nfields; i++) {
            field_clear(&self->fields[i]);
        }
        PyMem_Free(self->fields);
        self->fields = NULL;
    }
    self->nfields = 0;
    PyMem_Free(self->call_fields);
    self->call_fields = NULL;
    PyMem_Free(self->late_fields);
    self->late_fields = NULL;
    Py_CLEAR(self->cls);
    Py_CLEAR(self->py_encode);
    Py_CLEAR(self->py_decode);
    Py_CLEAR(self->unknown_key);
    Py_CLEAR(self->get_unknown);
    Py_CLEAR(self->set_unknown);
    Py_CLEAR(self->ctor);
    Py_CLEAR(self->kwnames);
    Py_CLEAR(self->list_encode);
    Py_CLEAR(self->list_decode);
    self->max_messages = 0;
    self->in_place = 0;
    Py_CLEAR(self->budget);
    Py_CLEAR(self->budget_name);
    Py_CLEAR(self->too_many);
    hier_free(self);  /* (not self->pending: a set-up that failed is tried again) */
}

int plan_set_up_pending(Plan *plan) {
    PyObject *pending = plan->pending;
    Py_INCREF(pending);  /* a successful setup() clears plan->pending while the call runs */
    PyObject *r = PyObject_CallNoArgs(pending);
    Py_DECREF(pending);
    if (r == NULL) {
        return -1;
    }
    Py_DECREF(r);
    if (!plan->ready) {
        Py_CLEAR(plan->pending);  /* the model kept the Python codec: hand over from now on */
        return 0;
    }
    return !plan->invalid;
}

/* Plan.set_pending(setup): what sets this plan up on its first use (None: nothing). */
static PyObject *plan_set_pending(Plan *self, PyObject *setup) {
    if (self->ready || self->cls != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "plan: set up already");
        return NULL;
    }
    if (setup != Py_None && !PyCallable_Check(setup)) {
        PyErr_SetString(PyExc_TypeError, "plan: set_pending needs a callable or None");
        return NULL;
    }
    Py_XSETREF(self->pending, setup == Py_None ? NULL : Py_NewRef(setup));
    Py_RETURN_NONE;
}

/* A tuple of indices below `limit` as a C array (PyMem; *count its length). */
Py_ssize_t *plan_index_array(PyObject *seq, Py_ssize_t limit, Py_ssize_t *count) {
    if (!PyTuple_Check(seq)) {
        PyErr_SetString(PyExc_TypeError, "plan: index lists are tuples");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(seq);
    Py_ssize_t *out = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Py_ssize_t));
    if (out == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t v = PyLong_AsSsize_t(PyTuple_GET_ITEM(seq, i));
        if (v < 0 || v >= limit) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "plan: index out of range");
            }
            PyMem_Free(out);
            return NULL;
        }
        out[i] = v;
    }
    *count = n;
    return out;
}

/* Plan.setup(cls, fields, ctor_spec, unknown_spec, use_dict, max_depth, py_encode, py_decode,
 *            hier_spec=None, budget_spec=None); budget_spec: (max_messages, BUDGET,
 *            too_many_messages) of a model with max_messages (budget.h) */
static PyObject *plan_setup(Plan *self, PyObject *args) {
    PyObject *cls, *fields, *ctor_spec, *unknown_spec, *py_encode, *py_decode;
    PyObject *hier_spec = Py_None, *budget_spec = Py_None;
    int use_dict, max_depth;
    Py_ssize_t max_messages = 0;
    PyObject *budget = NULL, *too_many = NULL;
    if (!PyArg_ParseTuple(args, "OO!O!OpiOO|OO:setup", &cls, &PyTuple_Type, &fields,
                          &PyTuple_Type, &ctor_spec, &unknown_spec, &use_dict, &max_depth,
                          &py_encode, &py_decode, &hier_spec, &budget_spec)) {
        return NULL;
    }
    if (budget_spec != Py_None
        && (!PyArg_ParseTuple(budget_spec, "nOO:budget_spec", &max_messages, &budget, &too_many)
            || max_messages < 1)) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "plan: max_messages must be at least 1");
        }
        return NULL;
    }
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "plan: cls must be a class");
        return NULL;
    }
    if (self->cls != NULL) {
        /* once only: a call running this plan (a callback of it may be what called
         * setup) reads its fields and nested plans without holding them */
        PyErr_SetString(PyExc_RuntimeError, "plan: set up already");
        return NULL;
    }
    if (PyTuple_GET_SIZE(fields) > INT16_MAX) {
        PyErr_SetString(PyExc_ValueError, "plan: more fields than the engine indexes");
        return NULL;
    }
    plan_release(self);
    Py_INCREF(cls);
    self->cls = cls;
    Py_INCREF(py_encode);
    self->py_encode = py_encode;
    Py_INCREF(py_decode);
    self->py_decode = py_decode;
    self->use_dict = use_dict;
    self->max_depth = max_depth;
    if (budget != NULL) {
        self->budget_name = PyUnicode_InternFromString("left");
        if (self->budget_name == NULL) {
            goto fail;
        }
        self->max_messages = max_messages;
        Py_INCREF(budget);
        self->budget = budget;
        Py_INCREF(too_many);
        self->too_many = too_many;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(fields);
    self->fields = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Field));
    if (self->fields == NULL) {
        PyErr_NoMemory();
        return NULL;
    }
    self->nfields = n;
    for (int i = 0; i <= 32; i++) {
        self->by_number[i] = -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        if (field_setup(&self->fields[i], PyTuple_GET_ITEM(fields, i)) < 0) {
            goto fail;
        }
        if (holds_datetimes(&self->fields[i].value)
            && engine_need_datetime(engine_state_of_type(Py_TYPE(self))) < 0) {
            goto fail;
        }
        uint32_t number = self->fields[i].number;
        if (number <= 32) {
            self->by_number[number] = (int16_t)i;
        }
    }
    /* (construct_new, ctor, call_fields, npositional, kwnames, late_fields) */
    if (PyTuple_GET_SIZE(ctor_spec) != 6) {
        PyErr_SetString(PyExc_TypeError, "plan: ctor spec is a 6-tuple");
        goto fail;
    }
    self->construct_new = PyObject_IsTrue(PyTuple_GET_ITEM(ctor_spec, 0));
    self->ctor = PyTuple_GET_ITEM(ctor_spec, 1);
    Py_INCREF(self->ctor);
    self->call_fields = plan_index_array(PyTuple_GET_ITEM(ctor_spec, 2), n, &self->ncall);
    if (self->call_fields == NULL) {
        goto fail;
    }
    self->npositional = PyLong_AsSsize_t(PyTuple_GET_ITEM(ctor_spec, 3));
    if (self->npositional < 0 || self->npositional > self->ncall) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "plan: bad positional count");
        }
        goto fail;
    }
    self->kwnames = none_to_null(PyTuple_GET_ITEM(ctor_spec, 4));
    Py_ssize_t nkw = self->kwnames ? PyTuple_GET_SIZE(self->kwnames) : 0;
    if (nkw != self->ncall - self->npositional) {
        PyErr_SetString(PyExc_ValueError, "plan: keyword names do not match the arguments");
        goto fail;
    }
    self->late_fields = plan_index_array(PyTuple_GET_ITEM(ctor_spec, 5), n, &self->nlate);
    if (self->late_fields == NULL) {
        goto fail;
    }
    if (unknown_spec != Py_None) {
        /* (key, in_dict, get_unknown, set_unknown) */
        if (!PyTuple_Check(unknown_spec) || PyTuple_GET_SIZE(unknown_spec) != 4) {
            PyErr_SetString(PyExc_TypeError, "plan: unknown spec is a 4-tuple");
            goto fail;
        }
        self->unknown_key = PyTuple_GET_ITEM(unknown_spec, 0);
        Py_INCREF(self->unknown_key);
        self->unknown_in_dict = PyObject_IsTrue(PyTuple_GET_ITEM(unknown_spec, 1));
        self->get_unknown = PyTuple_GET_ITEM(unknown_spec, 2);
        Py_INCREF(self->get_unknown);
        self->set_unknown = PyTuple_GET_ITEM(unknown_spec, 3);
        Py_INCREF(self->set_unknown);
    }
    if (hier_spec != Py_None && hier_setup(self, hier_spec) < 0) {
        goto fail;
    }
    self->in_place = self->construct_new && self->ctor == engine_state_of_type(Py_TYPE(self))->object_new
                     && !hier_is_multi(self);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (self->fields[i].container != NULL) {
            self->in_place = 0;
        }
    }
    self->invalid = 0;
    Py_CLEAR(self->pending);  /* set up: nothing waits any more */
    self->ready = 1;
    Py_RETURN_NONE;
fail:
    plan_release(self);
    return NULL;
}

static PyObject *plan_invalidate(Plan *self, PyObject *unused) {
    self->invalid = 1;
    Py_RETURN_NONE;
}

/* The pending exception is one no fallback can change (the message bound crossed,
 * budget.h): its class says so with a true `_protoattr_final` attribute. */
static int error_is_final(void) {
    PyObject *type, *exc, *tb;
    PyErr_Fetch(&type, &exc, &tb);
    PyObject *final = type ? PyObject_GetAttrString(type, "_protoattr_final") : NULL;
    int r = final == Py_True;
    Py_XDECREF(final);
    PyErr_Clear();
    PyErr_Restore(type, exc, tb);
    return r;
}

/* The engine declined or failed: 1 when the Python codec is to run (it gives the
 * result, or the exact error), with no exception left set; 0 when the pending
 * exception must propagate as it is: a KeyboardInterrupt, SystemExit or other
 * BaseException that is not an Exception is not about the data, and running the
 * codec again would lose it. */
int engine_may_fall_back(void) {
    PyObject *type = PyErr_Occurred();
    if (type != NULL && !PyErr_ExceptionMatches(PyExc_Exception)) {
        return 0;
    }
    if (type != NULL && error_is_final()) {
        return 0;
    }
    PyErr_Clear();
    return 1;
}

/* An entry point called with its thread's stack nearly used up (nesting that runs
 * through Python codecs and back into the engine): RecursionError, which the model
 * reports as nesting too deep, rather than a crash a few levels further on. */
static int stack_exhausted(void) {
    if (stack_low()) {
        PyErr_SetString(PyExc_RecursionError,
                        "protoattr: the thread's C stack is nearly used up");
        return 1;
    }
    return 0;
}

/* Plan.encode(obj) -> bytes: the message body, exactly as the Python codec writes it. */
static PyObject *plan_encode(Plan *self, PyObject *obj) {
    if (stack_exhausted()) {
        return NULL;
    }
    if (self->ready && !self->invalid) {
        EngineState *st = engine_state_of_type(Py_TYPE(self));
        PyObject *out = engine_encode(st, self, obj);
        if (out != NULL) {
            return out;
        }
        if (!engine_may_fall_back()) {
            return NULL;
        }
    }
    self->fallbacks++;
    if (self->py_encode == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "protoattr: plan used before setup");
        return NULL;
    }
    /* the Python codec: the result where the engine declined, the exact error otherwise */
    return PyObject_CallOneArg(self->py_encode, obj);
}

/* Plan.decode(buf, pos, end, depth, base) -> object, the Python codec's signature. */
static PyObject *plan_decode(Plan *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "decode(buf, pos, end, depth, base)");
        return NULL;
    }
    if (stack_exhausted()) {
        return NULL;
    }
    if (self->py_decode == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "protoattr: plan used before setup");
        return NULL;
    }
    PyObject *buf = args[0];
    if (self->ready && !self->invalid && PyBytes_CheckExact(buf)
        && PyLong_CheckExact(args[1]) && PyLong_CheckExact(args[2])
        && PyLong_CheckExact(args[3])) {
        Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
        Py_ssize_t end = PyLong_AsSsize_t(args[2]);
        Py_ssize_t depth = PyLong_AsSsize_t(args[3]);
        if (!PyErr_Occurred() && 0 <= pos && pos <= end && end <= PyBytes_GET_SIZE(buf)
            && depth >= 0) {
            EngineState *st = engine_state_of_type(Py_TYPE(self));
            /* Collections triggered by the objects a large decode creates find
             * nothing to free (every new object is referenced): defer them. */
            int pause = depth == 0 && end - pos > 4096;
            if (pause) {
                engine_gc_pause(st);
            }
            PyObject *base = args[4] == Py_None ? NULL : args[4];
            PyObject *out = engine_decode_nested(st, self, buf, pos, end, depth, base, 0);
            if (pause) {
                engine_gc_resume(st);
            }
            if (out != NULL) {
                return out;
            }
            if (!engine_may_fall_back()) {
                return NULL;
            }
        }
        PyErr_Clear();
    }
    self->fallbacks++;
    return PyObject_Vectorcall(self->py_decode, args, (size_t)nargs, NULL);
}

/* Plan.set_list_fallback(encode, decode): the Python codec of a top-level list[cls]. */
static PyObject *plan_set_list_fallback(Plan *self, PyObject *args) {
    PyObject *enc, *dec;
    if (!PyArg_ParseTuple(args, "OO:set_list_fallback", &enc, &dec)) {
        return NULL;
    }
    Py_INCREF(enc);
    Py_XSETREF(self->list_encode, enc);
    Py_INCREF(dec);
    Py_XSETREF(self->list_decode, dec);
    Py_RETURN_NONE;
}

/* Plan.encode_list(items) -> bytes: the items as repeated field 1. */
static PyObject *plan_encode_list(Plan *self, PyObject *items) {
    if (stack_exhausted()) {
        return NULL;
    }
    if (self->list_encode == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "protoattr: list codec used before setup");
        return NULL;
    }
    if (self->ready && !self->invalid) {
        PyObject *out = engine_encode_list(engine_state_of_type(Py_TYPE(self)), self, items);
        if (out != NULL) {
            return out;
        }
        if (!engine_may_fall_back()) {
            return NULL;
        }
    }
    self->fallbacks++;
    return PyObject_CallOneArg(self->list_encode, items);
}

/* Plan.decode_list(buf, pos, end, depth, base) -> list, the list codec's signature. */
static PyObject *plan_decode_list(Plan *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "decode_list(buf, pos, end, depth, base)");
        return NULL;
    }
    if (stack_exhausted()) {
        return NULL;
    }
    if (self->list_decode == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "protoattr: list codec used before setup");
        return NULL;
    }
    PyObject *buf = args[0];
    if (self->ready && !self->invalid && PyBytes_CheckExact(buf) && PyLong_CheckExact(args[1])
        && PyLong_CheckExact(args[2])) {
        Py_ssize_t pos = PyLong_AsSsize_t(args[1]);
        Py_ssize_t end = PyLong_AsSsize_t(args[2]);
        if (!PyErr_Occurred() && 0 <= pos && pos <= end && end <= PyBytes_GET_SIZE(buf)) {
            EngineState *st = engine_state_of_type(Py_TYPE(self));
            int pause = end - pos > 4096;
            if (pause) {
                engine_gc_pause(st);
            }
            PyObject *out = engine_decode_nested(st, self, buf, pos, end, 0, NULL, 1);
            if (pause) {
                engine_gc_resume(st);
            }
            if (out != NULL) {
                return out;
            }
            if (!engine_may_fall_back()) {
                return NULL;
            }
        }
        PyErr_Clear();
    }
    self->fallbacks++;
    return PyObject_Vectorcall(self->list_decode, args, (size_t)nargs, NULL);
}

static int plan_traverse(Plan *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->cls);
    Py_VISIT(self->py_encode);
    Py_VISIT(self->py_decode);
    Py_VISIT(self->unknown_key);
    Py_VISIT(self->get_unknown);
    Py_VISIT(self->set_unknown);
    Py_VISIT(self->ctor);
    Py_VISIT(self->kwnames);
    Py_VISIT(self->list_encode);
    Py_VISIT(self->list_decode);
    Py_VISIT(self->budget);
    Py_VISIT(self->too_many);
    Py_VISIT(self->pending);
    for (Py_ssize_t i = 0; i < self->nfields; i++) {
        Field *f = &self->fields[i];
        Py_VISIT(f->name);
        int r = value_traverse(&f->value, visit, arg);
        if (r) {
            return r;
        }
        r = value_traverse(&f->key, visit, arg);
        if (r) {
            return r;
        }
        Py_VISIT(f->def_obj);
        Py_VISIT(f->init_value);
        Py_VISIT(f->absent_value);
        Py_VISIT(f->container);
    }
    return hier_traverse(self, visit, arg);
}

static int plan_clear(Plan *self) {
    plan_release(self);
    Py_CLEAR(self->pending);
    return 0;
}

static void plan_dealloc(Plan *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    if (self->weakreflist != NULL) {
        PyObject_ClearWeakRefs((PyObject *)self);
    }
    plan_release(self);
    Py_CLEAR(self->pending);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyObject *plan_get_ready(Plan *self, void *closure) {
    return PyBool_FromLong(self->ready && !self->invalid);
}

static PyObject *plan_get_cls(Plan *self, void *closure) {
    if (self->cls == NULL) {
        Py_RETURN_NONE;
    }
    Py_INCREF(self->cls);
    return self->cls;
}

static PyMethodDef plan_methods[] = {
    {"setup", (PyCFunction)plan_setup, METH_VARARGS,
     "setup(cls, fields, ctor_spec, unknown_spec, use_dict, max_depth, py_encode, py_decode, "
     "hier_spec=None, budget_spec=None)"},
    {"encode", (PyCFunction)plan_encode, METH_O, "encode(obj) -> bytes"},
    {"decode", (PyCFunction)(void (*)(void))plan_decode, METH_FASTCALL,
     "decode(buf, pos, end, depth, base) -> object"},
    {"set_list_fallback", (PyCFunction)plan_set_list_fallback, METH_VARARGS,
     "set_list_fallback(encode, decode): the Python codec of list[cls]"},
    {"encode_list", (PyCFunction)plan_encode_list, METH_O, "encode_list(items) -> bytes"},
    {"decode_list", (PyCFunction)(void (*)(void))plan_decode_list, METH_FASTCALL,
     "decode_list(buf, pos, end, depth, base) -> list"},
    {"set_pending", (PyCFunction)plan_set_pending, METH_O,
     "set_pending(setup): call setup() to set this plan up when the engine first meets it"},
    {"invalidate", (PyCFunction)plan_invalidate, METH_NOARGS,
     "Send every later call to the Python codec (the contract's hierarchy changed)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef plan_getset[] = {
    {"ready", (getter)plan_get_ready, NULL, "True once set up and still valid", NULL},
    {"cls", (getter)plan_get_cls, NULL, "the contract class", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef plan_members[] = {
    {"__weaklistoffset__", T_PYSSIZET, offsetof(Plan, weakreflist), READONLY, NULL},
    {"fallbacks", T_PYSSIZET, offsetof(Plan, fallbacks), READONLY,
     "how many calls this plan handed to the Python codec"},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot plan_slots[] = {
    {Py_tp_doc, "The native codec of one contract class (built by protoattr._native.plan)."},
    {Py_tp_dealloc, plan_dealloc},
    {Py_tp_traverse, plan_traverse},
    {Py_tp_clear, plan_clear},
    {Py_tp_methods, plan_methods},
    {Py_tp_getset, plan_getset},
    {Py_tp_members, plan_members},
    {Py_tp_new, PyType_GenericNew},
    {0, NULL},
};

PyType_Spec plan_spec = {
    .name = "protoattr._native._engine.Plan",
    .basicsize = sizeof(Plan),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = plan_slots,
};
