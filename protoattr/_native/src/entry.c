/* Model entry points: TypeModel.serialize / deserialize / measure as C callables.
 *
 * The Python methods cost more than the engine itself on a small message
 * (argument parsing, the codec lookup, try/except, the bound-method call into
 * the plan: ~150 ns of a ~400 ns Book encode).  An Entry is installed on each
 * native model instance under the method's name (see NativeBackend.install_
 * entry_points); it takes the common case itself and hands every other one to
 * the Python method it shadows, which then behaves exactly as before:
 *
 *   serialize(obj)                 the codec of type(obj) is a ready plan
 *   serialize(obj, type=list[T])   the model's list codec of list[T] is a plan's loop
 *   deserialize(cls, bytes)        the same, for cls or list[T]
 *   measure(obj[, type=list[T]])   as serialize, returning the length
 *
 * A codec that is not (yet) a plan — lazy, Python-only, deterministic, a
 * surrogate — or any failure of the engine goes to the Python method, so
 * results, errors and their messages are the Python method's own, except that
 * crossing a model's max_messages is final (budget.h): setting max_messages on a
 * native model later changes nothing here, as it changes nothing in its plans (on a
 * failing input the engine simply ran once more, without side effects on
 * encode; on decode a user __init__ may run once more, as with Plan.decode).
 */
#include "plan.h"

#include <structmember.h>

enum { E_SERIALIZE = 0, E_DESERIALIZE = 1, E_MEASURE = 2 };

/* A __slots__ attribute of one class: the member's offset, valid while the class
 * (a strong reference) keeps its attribute-cache version tag, which changes on
 * any change to the class or its bases' attributes. */
typedef struct {
    PyTypeObject *tp;
    unsigned int version;
    Py_ssize_t offset;
} SlotCache;

typedef struct {
    PyObject_HEAD
    vectorcallfunc vectorcall;
    int mode;
    PyObject *codecs;      /* model._codecs: {cls: Codec} (never replaced, only filled) */
    PyObject *lists;       /* model._lists: {list[T]: list codec} */
    PyObject *slow;        /* the shadowed Python method, bound to the model */
    PyObject *str_type;
    /* the last list type seen and its list codec (hashing list[T] costs more than
     * the rest of the call): a pointer compare, then the codec's plan as usual */
    PyObject *last_list;
    PyObject *last_list_codec;
    /* Plan's methods, to recognise a codec attribute that is a plan's bound method */
    PyCFunction m_encode, m_decode, m_encode_list, m_decode_list;
    /* where codec.encode/decode lives in codec objects ([0] the model's codecs,
     * [1] its list codecs): read from the slot instead of a full getattr */
    SlotCache slot[2];
} Entry;

/* ---- GC deferral during large decodes ----------------------------------------
 *
 * A decode that builds thousands of objects triggers collections that find
 * nothing to free (every new object is referenced): the engine defers them.
 * The switch is process-wide, so: only the first of overlapping engine
 * decodes (threads, or a converter decoding inside a decode) turns it off,
 * only if it was on, and the last one to finish turns it back on.  Not
 * covered: another thread calling gc.disable() while a large decode runs
 * finds the collector on again when that decode ends. */

void engine_gc_pause(EngineState *st) {
    if (st->gc_paused++ == 0) {
        st->gc_was_enabled = PyGC_Disable();
    }
}

void engine_gc_resume(EngineState *st) {
    if (--st->gc_paused == 0 && st->gc_was_enabled) {
        st->gc_was_enabled = 0;
        PyGC_Enable();
    }
}

/* ---- helpers ---------------------------------------------------------------- */

/* obj.<name> (new reference; NULL, maybe with an exception, when it has none).
 * Codecs keep encode/decode in __slots__: once a class is seen with a plain
 * member there and the generic getattr, the slot is read directly, which is
 * what that getattr would do (a member is a data descriptor: it wins over any
 * instance dict). */
static PyObject *slot_attr(SlotCache *c, PyObject *obj, PyObject *name) {
    PyTypeObject *tp = Py_TYPE(obj);
    if (tp == c->tp && c->version != 0 && tp->tp_version_tag == c->version) {
        PyObject *v = *(PyObject **)((char *)obj + c->offset);
        Py_XINCREF(v);
        return v;
    }
    if (tp->tp_getattro == PyObject_GenericGetAttr) {
        PyObject *d = _PyType_Lookup(tp, name);  /* borrowed */
        if (d != NULL && Py_IS_TYPE(d, &PyMemberDescr_Type)
            && (tp->tp_flags & Py_TPFLAGS_VALID_VERSION_TAG)) {
            PyMemberDef *m = ((PyMemberDescrObject *)d)->d_member;
            if (m->type == T_OBJECT_EX && m->offset > 0) {
                Py_INCREF(tp);
                Py_XSETREF(c->tp, tp);
                c->version = tp->tp_version_tag;
                c->offset = m->offset;
            }
        }
    }
    return PyObject_GetAttr(obj, name);
}

/* codec.<name> if it is the bound method `meth` of a ready plan: that plan (new
 * reference), else NULL with no exception. */
static Plan *plan_behind(EngineState *st, SlotCache *cache, PyObject *codec, PyObject *name,
                         PyCFunction meth) {
    PyObject *m = slot_attr(cache, codec, name);
    if (m == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Plan *plan = NULL;
    if (PyCFunction_Check(m) && PyCFunction_GET_FUNCTION(m) == meth) {
        PyObject *self = PyCFunction_GET_SELF(m);
        if (self != NULL && Py_IS_TYPE(self, st->plan_type)) {
            Plan *p = (Plan *)self;
            if (p->ready && !p->invalid) {
                Py_INCREF(p);
                plan = p;
            }
        }
    }
    Py_DECREF(m);
    return plan;
}

/* d[key] as a new reference, NULL (no exception) when absent or unhashable. */
static PyObject *lookup(PyObject *d, PyObject *key) {
    PyObject *v = PyDict_GetItemWithError(d, key);
    if (v == NULL) {
        PyErr_Clear();
        return NULL;
    }
    Py_INCREF(v);
    return v;
}

/* The model's list codec of list type `t` (new reference), NULL when none.  The
 * model never replaces an entry of its list table, so the last one found stays
 * right for the same key object. */
static PyObject *list_codec(Entry *e, PyObject *t) {
    if (t == e->last_list && e->last_list_codec != NULL) {
        Py_INCREF(e->last_list_codec);
        return e->last_list_codec;
    }
    PyObject *lc = lookup(e->lists, t);
    if (lc != NULL) {
        Py_INCREF(t);
        Py_XSETREF(e->last_list, t);
        Py_INCREF(lc);
        Py_XSETREF(e->last_list_codec, lc);
    }
    return lc;
}

static PyObject *encode_fast(Entry *e, EngineState *st, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
    if (nargs != 1) {
        return NULL;
    }
    PyObject *obj = args[0];
    if (kwnames == NULL) {
        PyObject *codec = lookup(e->codecs, (PyObject *)Py_TYPE(obj));
        if (codec == NULL) {
            return NULL;
        }
        Plan *plan = plan_behind(st, &e->slot[0], codec, st->str_encode, e->m_encode);
        Py_DECREF(codec);
        if (plan == NULL) {
            return NULL;
        }
        PyObject *out = engine_encode(st, plan, obj);
        Py_DECREF(plan);
        return out;
    }
    if (PyTuple_GET_SIZE(kwnames) != 1) {
        return NULL;
    }
    PyObject *kw = PyTuple_GET_ITEM(kwnames, 0);
    if (kw != e->str_type && PyUnicode_Compare(kw, e->str_type) != 0) {
        return NULL;
    }
    PyObject *lc = list_codec(e, args[1]);
    if (lc == NULL) {
        return NULL;
    }
    Plan *plan = plan_behind(st, &e->slot[1], lc, st->str_encode, e->m_encode_list);
    Py_DECREF(lc);
    if (plan == NULL) {
        return NULL;
    }
    PyObject *out = engine_encode_list(st, plan, obj);
    Py_DECREF(plan);
    return out;
}

static PyObject *decode_fast(Entry *e, EngineState *st, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames) {
    if (nargs != 2 || kwnames != NULL) {
        return NULL;
    }
    PyObject *cls = args[0], *buf = args[1];
    if (!PyBytes_CheckExact(buf)) {
        return NULL;
    }
    int is_list = 0;
    PyObject *codec = lookup(e->codecs, cls);
    if (codec == NULL) {
        codec = list_codec(e, cls);
        if (codec == NULL) {
            return NULL;
        }
        is_list = 1;
    }
    Plan *plan = is_list ? plan_behind(st, &e->slot[1], codec, st->str_decode, e->m_decode_list)
                         : plan_behind(st, &e->slot[0], codec, st->str_decode, e->m_decode);
    Py_DECREF(codec);
    if (plan == NULL) {
        return NULL;
    }
    Py_ssize_t end = PyBytes_GET_SIZE(buf);
    int pause = end > 4096;
    if (pause) {
        engine_gc_pause(st);
    }
    PyObject *out = is_list ? engine_decode_list(st, plan, buf, 0, end)
                            : engine_decode(st, plan, buf, 0, end, 0);
    if (pause) {
        engine_gc_resume(st);
    }
    Py_DECREF(plan);
    return out;
}

static PyObject *entry_vectorcall(PyObject *self, PyObject *const *args, size_t nargsf,
                                  PyObject *kwnames) {
    Entry *e = (Entry *)self;
    EngineState *st = engine_state_of_type(Py_TYPE(self));
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    PyObject *out = e->mode == E_DESERIALIZE ? decode_fast(e, st, args, nargs, kwnames)
                                             : encode_fast(e, st, args, nargs, kwnames);
    if (out != NULL) {
        if (e->mode == E_MEASURE) {
            Py_ssize_t n = PyBytes_GET_SIZE(out);
            Py_DECREF(out);
            return PyLong_FromSsize_t(n);
        }
        return out;
    }
    if (e->mode != E_DESERIALIZE && PyErr_ExceptionMatches(PyExc_RecursionError)) {
        PyErr_Clear();  /* nested too deeply or a cycle: the Python method names the path */
    }
    if (!engine_may_fall_back()) {
        return NULL;  /* a KeyboardInterrupt or SystemExit: the Python path would lose it */
    }
    return PyObject_Vectorcall(e->slow, args, nargsf, kwnames);
}

/* ---- the type ------------------------------------------------------------------ */

static int method_of(PyTypeObject *plan_type, const char *name, PyCFunction *out) {
    PyObject *d = PyObject_GetAttrString((PyObject *)plan_type, name);
    if (d == NULL) {
        return -1;
    }
    if (!PyObject_TypeCheck(d, &PyMethodDescr_Type)) {
        Py_DECREF(d);
        PyErr_Format(PyExc_TypeError, "Plan.%s is not a method", name);
        return -1;
    }
    *out = ((PyMethodDescrObject *)d)->d_method->ml_meth;
    Py_DECREF(d);
    return 0;
}

static PyObject *entry_new(PyTypeObject *tp, PyObject *args, PyObject *kwds) {
    int mode;
    PyObject *codecs, *lists, *slow;
    if (kwds != NULL && PyDict_GET_SIZE(kwds)) {
        PyErr_SetString(PyExc_TypeError, "Entry(mode, codecs, lists, slow)");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "iO!O!O:Entry", &mode, &PyDict_Type, &codecs, &PyDict_Type,
                          &lists, &slow)) {
        return NULL;
    }
    if (mode < E_SERIALIZE || mode > E_MEASURE) {
        PyErr_SetString(PyExc_ValueError, "Entry: mode is 0 (serialize), 1 (deserialize) "
                                          "or 2 (measure)");
        return NULL;
    }
    EngineState *st = engine_state_of_type(tp);
    Entry *e = (Entry *)tp->tp_alloc(tp, 0);
    if (e == NULL) {
        return NULL;
    }
    e->vectorcall = entry_vectorcall;
    e->mode = mode;
    Py_INCREF(codecs);
    e->codecs = codecs;
    Py_INCREF(lists);
    e->lists = lists;
    Py_INCREF(slow);
    e->slow = slow;
    e->str_type = PyUnicode_InternFromString("type");
    if (e->str_type == NULL
        || method_of(st->plan_type, "encode", &e->m_encode) < 0
        || method_of(st->plan_type, "decode", &e->m_decode) < 0
        || method_of(st->plan_type, "encode_list", &e->m_encode_list) < 0
        || method_of(st->plan_type, "decode_list", &e->m_decode_list) < 0) {
        Py_DECREF(e);
        return NULL;
    }
    return (PyObject *)e;
}

static int entry_traverse(Entry *e, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(e));
    Py_VISIT(e->codecs);
    Py_VISIT(e->lists);
    Py_VISIT(e->slow);
    Py_VISIT(e->last_list);
    Py_VISIT(e->last_list_codec);
    Py_VISIT(e->slot[0].tp);
    Py_VISIT(e->slot[1].tp);
    return 0;
}

static int entry_clear(Entry *e) {
    Py_CLEAR(e->codecs);
    Py_CLEAR(e->lists);
    Py_CLEAR(e->slow);
    Py_CLEAR(e->last_list);
    Py_CLEAR(e->last_list_codec);
    Py_CLEAR(e->slot[0].tp);
    Py_CLEAR(e->slot[1].tp);
    Py_CLEAR(e->str_type);
    return 0;
}

static void entry_dealloc(Entry *e) {
    PyTypeObject *tp = Py_TYPE(e);
    PyObject_GC_UnTrack(e);
    entry_clear(e);
    tp->tp_free((PyObject *)e);
    Py_DECREF(tp);
}

/* help(), inspect.signature(), __doc__, __self__ (the model) ... see the Python method */
static PyObject *entry_get_wrapped(Entry *e, void *closure) {
    if (e->slow == NULL) {
        Py_RETURN_NONE;
    }
    Py_INCREF(e->slow);
    return e->slow;
}

static PyObject *entry_get_attr_of_slow(Entry *e, void *closure) {
    if (e->slow == NULL) {
        Py_RETURN_NONE;
    }
    return PyObject_GetAttrString(e->slow, (const char *)closure);
}

static PyObject *entry_repr(Entry *e) {
    return PyUnicode_FromFormat("<native entry point of %R>", e->slow);
}

static PyGetSetDef entry_getset[] = {
    {"__wrapped__", (getter)entry_get_wrapped, NULL, "the Python method behind", NULL},
    {"__doc__", (getter)entry_get_attr_of_slow, NULL, NULL, "__doc__"},
    {"__name__", (getter)entry_get_attr_of_slow, NULL, NULL, "__name__"},
    {"__qualname__", (getter)entry_get_attr_of_slow, NULL, NULL, "__qualname__"},
    {"__self__", (getter)entry_get_attr_of_slow, NULL, "the model", "__self__"},
    {"__func__", (getter)entry_get_attr_of_slow, NULL, "the TypeModel method", "__func__"},
    {"__module__", (getter)entry_get_attr_of_slow, NULL, NULL, "__module__"},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef entry_members[] = {
    {"__vectorcalloffset__", T_PYSSIZET, offsetof(Entry, vectorcall), READONLY, NULL},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot entry_slots[] = {
    {Py_tp_dealloc, entry_dealloc},
    {Py_tp_traverse, entry_traverse},
    {Py_tp_clear, entry_clear},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_getset, entry_getset},
    {Py_tp_members, entry_members},
    {Py_tp_repr, entry_repr},
    {Py_tp_new, entry_new},
    {0, NULL},
};

static PyType_Spec entry_spec = {
    .name = "protoattr._native._engine.Entry",
    .basicsize = sizeof(Entry),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = entry_slots,
};

int engine_add_entry_type(PyObject *module) {
    PyObject *tp = PyType_FromModuleAndSpec(module, &entry_spec, NULL);
    if (tp == NULL) {
        return -1;
    }
    int r = PyModule_AddObjectRef(module, "Entry", tp);
    Py_DECREF(tp);
    return r;
}
