/* Hierarchies and merges: the generated Python decoder's levels, as data.
 *
 * A contract in an inheritance hierarchy (protobuf-net's layout) travels as
 * its root's message; each subtype's own fields are a message nested in its
 * parent's subtype field, written before the parent's own fields.  A plan of
 * such a contract holds every level of the hierarchy (the root first, then
 * the descendants depth first, as the generated decoder lists them); its
 * fields are the slots of all levels, each level owning some.  Decoding
 * tracks the class to build as the generated code does (the requested class
 * is the least built; a deeper subtype present wins; a subtype that is not
 * the requested class nor one of its own is an error the Python codec
 * reports), then builds that class from its chain's slots.
 *
 * Every plan has levels (a flat contract has one): a decode with a base (a
 * merge, or a singular message seen twice) starts from the base's values, as
 * the generated decoder's ``base`` branch does.
 */
#include "engine.h"
#include "wire.h"
#include "budget.h"
#include "stack.h"


/* -- setup ---------------------------------------------------------------- */

static PyObject *ref_or_null(PyObject *o) {
    if (o == Py_None) {
        return NULL;
    }
    Py_INCREF(o);
    return o;
}

static void level_clear(Level *l) {
    Py_CLEAR(l->cls);
    Py_CLEAR(l->unknown_key);
    Py_CLEAR(l->ctor);
    Py_CLEAR(l->kwnames);
    PyMem_Free(l->slots);
    PyMem_Free(l->children);
    PyMem_Free(l->call);
    PyMem_Free(l->late);
    l->slots = l->children = l->call = l->late = NULL;
}

/* (cls, parent, number, tag, slots, children, unknown_key, unknown_in_dict, use_dict,
 *  in_subtree, (construct_new, ctor, call, npositional, kwnames, late)) */
static int level_setup(Plan *plan, Hier *h, Py_ssize_t index, PyObject *spec) {
    Level *l = &h->levels[index];
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 11) {
        PyErr_SetString(PyExc_TypeError, "plan: a level spec is an 11-tuple");
        return -1;
    }
    PyObject *cls = PyTuple_GET_ITEM(spec, 0);
    if (!PyType_Check(cls)) {
        PyErr_SetString(PyExc_TypeError, "plan: a level is a class");
        return -1;
    }
    Py_INCREF(cls);
    l->cls = cls;
    l->parent = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 1));
    l->number = (uint32_t)PyLong_AsUnsignedLong(PyTuple_GET_ITEM(spec, 2));
    if (PyErr_Occurred()) {
        return -1;
    }
    if (l->parent >= index || (index > 0 && l->parent < 0) || (index == 0 && l->parent != -1)) {
        PyErr_SetString(PyExc_ValueError, "plan: a level's parent comes before it");
        return -1;
    }
    PyObject *tag = PyTuple_GET_ITEM(spec, 3);
    if (!PyBytes_Check(tag) || PyBytes_GET_SIZE(tag) > 5) {
        PyErr_SetString(PyExc_ValueError, "plan: a level tag is at most 5 bytes");
        return -1;
    }
    l->taglen = (int)PyBytes_GET_SIZE(tag);
    memcpy(l->tag, PyBytes_AS_STRING(tag), (size_t)l->taglen);
    if (index > 0 && l->taglen == 0) {
        PyErr_SetString(PyExc_ValueError, "plan: a subtype level needs its tag");
        return -1;
    }
    l->slots = plan_index_array(PyTuple_GET_ITEM(spec, 4), plan->nfields, &l->nslots);
    if (l->slots == NULL) {
        return -1;
    }
    l->children = plan_index_array(PyTuple_GET_ITEM(spec, 5), h->nlevels, &l->nchildren);
    if (l->children == NULL) {
        return -1;
    }
    l->unknown_key = ref_or_null(PyTuple_GET_ITEM(spec, 6));
    l->unknown_in_dict = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 7));
    l->use_dict = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 8));
    l->in_subtree = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 9));
    PyObject *ctor = PyTuple_GET_ITEM(spec, 10);
    if (!PyTuple_Check(ctor) || PyTuple_GET_SIZE(ctor) != 6) {
        PyErr_SetString(PyExc_TypeError, "plan: a level's ctor spec is a 6-tuple");
        return -1;
    }
    l->construct_new = PyObject_IsTrue(PyTuple_GET_ITEM(ctor, 0));
    l->ctor = PyTuple_GET_ITEM(ctor, 1);
    Py_INCREF(l->ctor);
    l->call = plan_index_array(PyTuple_GET_ITEM(ctor, 2), plan->nfields, &l->ncall);
    if (l->call == NULL) {
        return -1;
    }
    l->npositional = PyLong_AsSsize_t(PyTuple_GET_ITEM(ctor, 3));
    l->kwnames = ref_or_null(PyTuple_GET_ITEM(ctor, 4));
    Py_ssize_t nkw = l->kwnames ? PyTuple_GET_SIZE(l->kwnames) : 0;
    if (PyErr_Occurred() || l->npositional < 0 || nkw != l->ncall - l->npositional) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "plan: a level's arguments do not match");
        }
        return -1;
    }
    l->late = plan_index_array(PyTuple_GET_ITEM(ctor, 5), plan->nfields, &l->nlate);
    if (l->late == NULL) {
        return -1;
    }
    for (int i = 0; i <= 32; i++) {
        l->by_number[i] = -1;
    }
    for (Py_ssize_t i = 0; i < l->nslots; i++) {
        uint32_t number = plan->fields[l->slots[i]].number;
        if (number <= 32) {
            l->by_number[number] = (int16_t)l->slots[i];
        }
    }
    return 0;
}

/* Plan.setup's hier_spec: (requested, get_unknown, set_unknown, levels). */
int hier_setup(Plan *plan, PyObject *spec) {
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 4
        || !PyTuple_Check(PyTuple_GET_ITEM(spec, 3))) {
        PyErr_SetString(PyExc_TypeError, "plan: hier spec is (requested, get, set, levels)");
        return -1;
    }
    PyObject *levels = PyTuple_GET_ITEM(spec, 3);
    Py_ssize_t n = PyTuple_GET_SIZE(levels);
    if (n < 1 || n > 30000 || plan->nfields > 30000) {
        PyErr_SetString(PyExc_ValueError, "plan: 1..30000 levels and fields");
        return -1;
    }
    Hier *h = PyMem_Calloc(1, sizeof(Hier));
    if (h == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    plan->hier = h;
    h->levels = PyMem_Calloc((size_t)n, sizeof(Level));
    if (h->levels == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    h->nlevels = n;
    h->requested = PyLong_AsSsize_t(PyTuple_GET_ITEM(spec, 0));
    if (h->requested < 0 || h->requested >= n) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "plan: requested level out of range");
        }
        return -1;
    }
    h->get_unknown = ref_or_null(PyTuple_GET_ITEM(spec, 1));
    h->set_unknown = ref_or_null(PyTuple_GET_ITEM(spec, 2));
    for (Py_ssize_t i = 0; i < n; i++) {
        if (level_setup(plan, h, i, PyTuple_GET_ITEM(levels, i)) < 0) {
            return -1;
        }
        if (h->levels[i].unknown_key != NULL
            && (h->get_unknown == NULL || h->set_unknown == NULL)) {
            PyErr_SetString(PyExc_ValueError, "plan: unknown fields need get/set helpers");
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        Level *l = &h->levels[i];
        for (Py_ssize_t j = 0; j < l->nchildren; j++) {
            Py_ssize_t k = l->children[j];
            if (k <= i || h->levels[k].parent != i) {
                PyErr_SetString(PyExc_ValueError, "plan: a child level must name its parent");
                return -1;
            }
            if (h->levels[k].number <= 32) {
                l->by_number[h->levels[k].number] = (int16_t)(-2 - k);
            }
        }
    }
    return 0;
}

void hier_free(Plan *plan) {
    Hier *h = plan->hier;
    if (h == NULL) {
        return;
    }
    plan->hier = NULL;
    if (h->levels != NULL) {
        for (Py_ssize_t i = 0; i < h->nlevels; i++) {
            level_clear(&h->levels[i]);
        }
        PyMem_Free(h->levels);
    }
    Py_CLEAR(h->get_unknown);
    Py_CLEAR(h->set_unknown);
    PyMem_Free(h);
}

int hier_traverse(Plan *plan, visitproc visit, void *arg) {
    Hier *h = plan->hier;
    if (h == NULL) {
        return 0;
    }
    Py_VISIT(h->get_unknown);
    Py_VISIT(h->set_unknown);
    for (Py_ssize_t i = 0; i < h->nlevels && h->levels != NULL; i++) {
        Level *l = &h->levels[i];
        Py_VISIT(l->cls);
        Py_VISIT(l->unknown_key);
        Py_VISIT(l->ctor);
        Py_VISIT(l->kwnames);
    }
    return 0;
}

/* -- encode ----------------------------------------------------------------- */

typedef struct {
    EngineState *st;
    Plan *plan;
    PyObject *obj;
    PyObject *dict;                /* obj's __dict__ when the fields may be read there */
    unsigned char oneof_set[MAX_ONEOFS + 1];
    const Py_ssize_t *path;        /* path[0]: the object's level ... path[top]: the root */
    int depth;
} EncodeCtx;

/* The unknown fields kept on the object for one level: written, or -1. */
static int write_level_unknown(EncodeCtx *e, const Level *l, Buf *b) {
    PyObject *u;
    if (unknown_of(e->st, e->obj, e->dict, l->unknown_in_dict, e->plan->hier->get_unknown,
                   l->unknown_key, &u) < 0) {
        return -1;
    }
    if (u == NULL) {
        return 0;
    }
    int r = buf_write(b, PyBytes_AS_STRING(u), PyBytes_GET_SIZE(u));
    Py_DECREF(u);
    return r;
}

/* Level path[j]: the deeper levels nested first (their subtype field), then its own
 * fields, then its unknown fields. */
static int write_level(EncodeCtx *e, Py_ssize_t j, Buf *b) {
    Hier *h = e->plan->hier;
    const Level *l = &h->levels[e->path[j]];
    if (j > 0) {
        const Level *child = &h->levels[e->path[j - 1]];
        if (buf_write(b, (const char *)child->tag, child->taglen) < 0 || buf_reserve(b, 1) < 0) {
            return -1;
        }
        Py_ssize_t at = buf_open(b);
        if (write_level(e, j - 1, b) < 0 || buf_close(b, at) < 0) {
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < l->nslots; i++) {
        const Field *f = &e->plan->fields[l->slots[i]];
        PyObject *v = NULL;
        if (e->dict != NULL) {
            v = PyDict_GetItemWithError(e->dict, f->name);
            if (v != NULL) {
                Py_INCREF(v);  /* held: a callback below may change the dict */
            } else if (PyErr_Occurred()) {
                return -1;
            }
        }
        if (v == NULL && (v = PyObject_GetAttr(e->obj, f->name)) == NULL) {
            return -1;
        }
        int r;
        if (f->oneof && v != Py_None && e->oneof_set[f->oneof]++) {
            r = -1;  /* two members of one oneof set: Python names them in its error */
        } else {
            r = encode_field(e->st, f, v, b, e->depth);
        }
        Py_DECREF(v);
        if (r < 0) {
            return -1;
        }
    }
    return l->unknown_key != NULL ? write_level_unknown(e, l, b) : 0;
}

int hier_encode(EngineState *st, Plan *plan, PyObject *obj, Buf *b, int depth) {
    if (depth > NATIVE_MAX_DEPTH || !plan_usable(plan) || plan->hier == NULL) {
        return -1;
    }
    Hier *h = plan->hier;
    Py_ssize_t level = h->requested;
    PyObject *tp = (PyObject *)Py_TYPE(obj);
    if (tp != h->levels[level].cls) {
        /* an instance of a subtype: written as that subtype (the generated _subcodecs) */
        for (Py_ssize_t k = 0; k < h->nlevels; k++) {
            if (h->levels[k].in_subtree && h->levels[k].cls == tp) {
                level = k;
                break;
            }
        }
    }
    Py_ssize_t small[16];
    Py_ssize_t *path = small;
    if (h->nlevels > 16) {
        path = PyMem_Malloc((size_t)h->nlevels * sizeof(Py_ssize_t));
        if (path == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    Py_ssize_t top = 0;
    for (Py_ssize_t k = level; k >= 0; k = h->levels[k].parent) {
        path[top++] = k;
    }
    EncodeCtx e = {st, plan, obj, NULL, {0}, path, depth};
    int r = 0;
    if (h->levels[level].use_dict && tp == h->levels[level].cls) {
        e.dict = PyObject_GenericGetDict(obj, NULL);
        if (e.dict == NULL) {
            r = -1;
        }
    }
    if (r == 0) {
        r = write_level(&e, top - 1, b);
    }
    Py_XDECREF(e.dict);
    if (path != small) {
        PyMem_Free(path);
    }
    return r;
}

/* -- decode ------------------------------------------------------------------ */

static PyObject *py_ssize(Py_ssize_t v) {
    return PyLong_FromSsize_t(v);
}

static int read_length(const unsigned char **p, const unsigned char *end,
                       const unsigned char **body_end) {
    uint64_t n;
    if (read_varint(p, end, &n) < 0 || n > (uint64_t)(end - *p)) {
        return -1;
    }
    *body_end = *p + n;
    return 0;
}

/* codec.decode(buf, pos, end, depth, base) of a contract the engine does not run. */
static PyObject *call_back(Ctx *c, PyObject *codec, const unsigned char *p,
                           const unsigned char *e, Py_ssize_t depth, PyObject *base) {
    PyObject *dec = PyObject_GetAttr(codec, c->st->str_decode);
    if (dec == NULL) {
        return NULL;
    }
    PyObject *pos = py_ssize(p - c->base);
    PyObject *stop = py_ssize(e - c->base);
    PyObject *dep = py_ssize(depth);
    PyObject *out = NULL, *saved;
    if (pos && stop && dep && budget_lend(c, &saved) == 0) {
        PyObject *args[5] = {c->bufobj, pos, stop, dep, base ? base : Py_None};
        out = PyObject_Vectorcall(dec, args, 5, NULL);
        if (budget_back(c, saved) < 0) {
            Py_CLEAR(out);
        }
    }
    Py_XDECREF(pos);
    Py_XDECREF(stop);
    Py_XDECREF(dep);
    Py_DECREF(dec);
    return out;
}

PyObject *decode_sub(Ctx *c, const ValueSpec *vs, const unsigned char *p, const unsigned char *e,
                     Py_ssize_t depth, PyObject *base) {
    if (base == NULL) {
        if (vs->sub_native) {
            return decode_message(c, (Plan *)vs->sub, p, e, depth);
        }
        return call_back(c, vs->sub, p, e, depth, NULL);
    }
    PyObject *out, *cls;
    if (vs->sub_native) {
        Plan *sub = (Plan *)vs->sub;
        out = hier_decode(c, sub, p, e, depth, base);
        cls = sub->cls;
        Py_XINCREF(cls);
    } else {
        out = call_back(c, vs->sub, p, e, depth, base);
        cls = out ? PyObject_GetAttrString(vs->sub, "cls") : NULL;
    }
    if (out == NULL || cls == NULL) {
        Py_XDECREF(out);
        Py_XDECREF(cls);
        return NULL;
    }
    /* merged into a value of another subtype, it must still be a value of the field's
     * class (_runtime.of_subtype; a root or flat class always is) */
    int ok = PyObject_IsInstance(out, cls);
    Py_DECREF(cls);
    if (ok != 1) {
        Py_DECREF(out);
        return NULL;
    }
    return out;
}

static PyObject *merged_start(Ctx *c, Plan *plan, PyObject *base, Py_ssize_t depth);
static int merged_read(Ctx *c, PyObject *m, const unsigned char *p, const unsigned char *e,
                       Py_ssize_t depth);

int takes_merged(const Field *f) {
    const ValueSpec *vs = &f->value;
    return vs->sub_native && !vs->conv && f->label != L_REPEATED && f->label != L_MAP;
}

int merge_later(Ctx *c, const ValueSpec *vs, const unsigned char *p, const unsigned char *e,
                Py_ssize_t depth, PyObject **slot) {
    if (!is_merged(*slot)) {  /* the second occurrence: the first one's values copied */
        PyObject *m = merged_start(c, (Plan *)vs->sub, *slot, depth);
        if (m == NULL) {
            return -1;
        }
        Py_SETREF(*slot, m);
    }
    return merged_read(c, *slot, p, e, depth);
}

int merge_field(Ctx *c, const Field *f, const unsigned char **p, const unsigned char *end,
                Py_ssize_t depth, PyObject **slot) {
    const unsigned char *e;
    if (read_length(p, end, &e) < 0) {
        return -1;
    }
    const ValueSpec *vs = &f->value;
    if (takes_merged(f)) {
        if (merge_later(c, vs, *p, e, depth + 1, slot) < 0) {
            return -1;
        }
        *p = e;
        return 1;
    }
    PyObject *v = decode_sub(c, vs, *p, e, depth + 1, *slot);
    if (v == NULL) {
        return -1;
    }
    Py_SETREF(*slot, v);
    *p = e;
    return 1;
}

typedef struct {
    Ctx *c;
    Plan *plan;
    PyObject **vals;
    Unknown *unknown;              /* one per level */
    PyObject *cls;                 /* the class to build (borrowed: a level's, or base's type) */
    Py_ssize_t depth;
} DecodeCtx;

static Py_ssize_t level_lookup(const Plan *plan, const Level *l, uint32_t number) {
    if (number <= 32) {
        return l->by_number[number];
    }
    for (Py_ssize_t i = 0; i < l->nslots; i++) {
        if (plan->fields[l->slots[i]].number == number) {
            return l->slots[i];
        }
    }
    const Hier *h = plan->hier;
    for (Py_ssize_t i = 0; i < l->nchildren; i++) {
        if (h->levels[l->children[i]].number == number) {
            return -2 - l->children[i];
        }
    }
    return -1;
}

/* The fields of level `index` from *p to end (the generated _level_body). */
static int decode_level(DecodeCtx *d, Py_ssize_t index, const unsigned char **pp,
                        const unsigned char *end) {
    Plan *plan = d->plan;
    const Level *l = &plan->hier->levels[index];
    const unsigned char *p = *pp;
    while (p < end) {
        const unsigned char *t0 = p;
        uint64_t tag;
        if (read_tag(&p, end, &tag) < 0) {
            return -1;
        }
        int wt = (int)(tag & 7);
        Py_ssize_t idx = level_lookup(plan, l, (uint32_t)(tag >> 3));
        int r = 0;
        if (idx >= 0) {
            r = read_field(d->c, &plan->fields[idx], wt, &p, end, d->depth, &d->vals[idx]);
            if (r < 0) {
                return -1;
            }
            int group = plan->fields[idx].oneof;
            if (r == 1 && group) {  /* the last member seen wins: the others become None */
                for (Py_ssize_t j = 0; j < plan->nfields; j++) {
                    if (j != idx && plan->fields[j].oneof == group) {
                        Py_INCREF(Py_None);
                        Py_XSETREF(d->vals[j], Py_None);
                    }
                }
            }
        } else if (idx <= -2 && wt == WT_LEN) {
            Py_ssize_t k = -2 - idx;
            const unsigned char *se;
            if (read_length(&p, end, &se) < 0) {
                return -1;
            }
            /* the requested class is the least built; deeper data wins */
            PyObject *sub = plan->hier->levels[k].cls;
            int is = PyObject_IsSubclass(d->cls, sub);
            if (is < 0) {
                return -1;
            }
            if (!is) {
                d->cls = sub;
            }
            /* the level's last value must end exactly where its length said */
            if (decode_level(d, k, &p, se) < 0 || p != se) {
                return -1;
            }
            r = 1;
        }
        if (r == 0) {
            if (skip_value(d->c, tag, &p, end, d->depth) < 0) {
                return -1;
            }
            if (l->unknown_key != NULL && unknown_add(&d->unknown[index], t0, p - t0) < 0) {
                return -1;
            }
        }
    }
    *pp = p;
    return 0;
}

/* A field's value before decoding (the generated decoder's `f_x = ...` lines). */
static int initial(const Field *f, PyObject **slot) {
    switch (f->init_mode) {
    case INIT_VALUE:
        *slot = f->init_value;
        Py_INCREF(*slot);
        return 0;
    case INIT_LIST:
        *slot = PyList_New(0);
        return *slot ? 0 : -1;
    case INIT_DICT:
        *slot = PyDict_New();
        return *slot ? 0 : -1;
    default:
        *slot = NULL;
        return 0;
    }
}

/* A level's unknown fields kept on `base`, appended to `u` (the copy from the base). */
static int base_unknown(DecodeCtx *d, const Level *l, PyObject *base, Unknown *u) {
    PyObject *got;
    if (unknown_of(d->c->st, base, NULL, l->unknown_in_dict, d->plan->hier->get_unknown,
                   l->unknown_key, &got) < 0) {
        return -1;
    }
    if (got == NULL) {
        return 0;
    }
    int r = unknown_add(u, (const unsigned char *)PyBytes_AS_STRING(got), PyBytes_GET_SIZE(got));
    Py_DECREF(got);
    return r;
}

/* The generated decoder's `base` branch: every level's values copied from the base
 * where it is an instance of that level (the root always), else their initial values. */
static int start_values(DecodeCtx *d, PyObject *base) {
    Plan *plan = d->plan;
    Hier *h = plan->hier;
    for (Py_ssize_t i = 0; i < h->nlevels; i++) {
        const Level *l = &h->levels[i];
        int copy = base != NULL;
        if (copy && i > 0) {
            copy = PyObject_IsInstance(base, l->cls);
            if (copy < 0) {
                return -1;
            }
        }
        for (Py_ssize_t j = 0; j < l->nslots; j++) {
            Py_ssize_t s = l->slots[j];
            const Field *f = &plan->fields[s];
            if (!copy) {
                if (initial(f, &d->vals[s]) < 0) {
                    return -1;
                }
                continue;
            }
            PyObject *v = PyObject_GetAttr(base, f->name);
            if (v != NULL && (f->label == L_REPEATED || f->label == L_MAP)) {
                /* list(base.x) / dict(base.x): a copy the decode appends to */
                PyObject *type = f->label == L_REPEATED ? (PyObject *)&PyList_Type
                                                        : (PyObject *)&PyDict_Type;
                Py_SETREF(v, PyObject_CallOneArg(type, v));
            }
            if (v == NULL) {
                return -1;
            }
            d->vals[s] = v;
        }
        if (copy && l->unknown_key != NULL && base_unknown(d, l, base, &d->unknown[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The absent-field rule of the generated _build: None stands for "absent" where the
 * initial value is None (messages, required fields), NULL everywhere. */
static int is_absent(const Field *f, PyObject *v) {
    return v == NULL || (v == Py_None && (f->value.kind == K_MESSAGE
                                          || f->absent_mode == ABSENT_REQUIRED));
}

static int complete_level(DecodeCtx *d, const Level *l) {
    for (Py_ssize_t j = 0; j < l->nslots; j++) {
        Py_ssize_t s = l->slots[j];
        const Field *f = &d->plan->fields[s];
        if (is_absent(f, d->vals[s])) {
            Py_CLEAR(d->vals[s]);
            if (fill_absent(d->c, f, &d->vals[s], d->depth) < 0) {
                return -1;
            }
        }
        if (f->container != NULL) {
            PyObject *conv = PyObject_CallOneArg(f->container, d->vals[s]);
            if (conv == NULL) {
                return -1;
            }
            Py_SETREF(d->vals[s], conv);
        }
    }
    return 0;
}

/* Build level `index`'s class from the slots of its chain (the generated _build). */
static PyObject *build_level(DecodeCtx *d, Py_ssize_t index) {
    Hier *h = d->plan->hier;
    const Level *final = &h->levels[index];
    Py_ssize_t chain[64];
    Py_ssize_t n = 0;
    for (Py_ssize_t k = index; k >= 0; k = h->levels[k].parent) {
        if (n == 64) {
            return NULL;  /* a hierarchy this deep: the Python codec */
        }
        chain[n++] = k;
    }
    for (Py_ssize_t j = n - 1; j >= 0 && d->c->merges; j--) {  /* merged ones built first */
        const Level *l = &h->levels[chain[j]];
        for (Py_ssize_t i = 0; i < l->nslots; i++) {
            if (merged_finish_slot(d->c, &d->vals[l->slots[i]]) < 0) {
                return NULL;
            }
        }
    }
    for (Py_ssize_t j = n - 1; j >= 0; j--) {  /* the root's fields first */
        if (complete_level(d, &h->levels[chain[j]]) < 0) {
            return NULL;
        }
    }
    PyObject *obj;
    if (final->construct_new) {
        obj = PyObject_CallOneArg(final->ctor, final->cls);
    } else {
        PyObject *small[16];
        PyObject **args = small;
        if (final->ncall > 16) {
            args = PyMem_Malloc((size_t)final->ncall * sizeof(PyObject *));
            if (args == NULL) {
                return PyErr_NoMemory();
            }
        }
        for (Py_ssize_t j = 0; j < final->ncall; j++) {
            args[j] = d->vals[final->call[j]];  /* borrowed */
        }
        obj = PyObject_Vectorcall(final->ctor, args, (size_t)final->npositional,
                                  final->kwnames);
        if (args != small) {
            PyMem_Free(args);
        }
    }
    if (obj == NULL) {
        return NULL;
    }
    for (Py_ssize_t j = 0; j < final->nlate; j++) {
        Py_ssize_t s = final->late[j];
        if (PyObject_GenericSetAttr(obj, d->plan->fields[s].name, d->vals[s]) < 0) {
            Py_DECREF(obj);
            return NULL;
        }
    }
    for (Py_ssize_t j = 0; j < n; j++) {  /* the object's own level first */
        const Level *l = &h->levels[chain[j]];
        Unknown *u = &d->unknown[chain[j]];
        if (l->unknown_key != NULL && u->len
            && store_unknown(h->set_unknown, obj, l->unknown_key, u) < 0) {
            Py_DECREF(obj);
            return NULL;
        }
    }
    return obj;
}

/* -- merges into values not built yet ------------------------------------------
 *
 * A singular message field seen again merges into the value read so far.  Where that
 * value cannot take the new fields in place (decode.c's takes_in_place: a validated,
 * frozen, __post_init__ or hierarchy class, converted containers, a value this decode
 * did not build), every occurrence used to build the class anew from the previous
 * object's values and the new fields: copying each list every time, so a field
 * repeated n times cost O(n^2).  Now the second occurrence copies the first object's
 * values once (as a merge into a base does) into a Merged, the later ones read into
 * it, and the holder builds it once when the holder itself is built (build in
 * decode.c, build_level here; merge_into builds it at once).  Each occurrence is
 * still read, counted and depth-checked as a message, in input order, as the
 * generated Python merge_ reads it into a _runtime.Partial; only the constructor call
 * waits.  A Merged lives in a slot as a capsule named MERGED, never beyond the decode. */
static const char MERGED[] = "protoattr._native.merged";

typedef struct {
    Plan *plan;                    /* a strong reference */
    PyObject **vals;               /* plan->nfields values, as in hier_decode */
    Unknown *unknown;              /* nlevels of them: one per level */
    Py_ssize_t nlevels;
    PyObject *cls;                 /* a strong reference: the class to build */
    Py_ssize_t depth;              /* the message's (fill_absent counts from it) */
} Merged;

int is_merged(PyObject *v) {
    return v != NULL && PyCapsule_CheckExact(v) && PyCapsule_GetName(v) == MERGED;
}

static void merged_release(Merged *m) {
    if (m->vals != NULL) {
        for (Py_ssize_t i = 0; i < m->plan->nfields; i++) {
            Py_XDECREF(m->vals[i]);
        }
        PyMem_Free(m->vals);
    }
    if (m->unknown != NULL) {
        for (Py_ssize_t i = 0; i < m->nlevels; i++) {
            PyMem_Free(m->unknown[i].data);
        }
        PyMem_Free(m->unknown);
    }
    Py_XDECREF(m->cls);
    Py_DECREF((PyObject *)m->plan);
    PyMem_Free(m);
}

static void merged_free(PyObject *capsule) {
    Merged *m = PyCapsule_GetPointer(capsule, MERGED);
    if (m == NULL) {
        PyErr_Clear();
        return;
    }
    merged_release(m);
}

/* The values of `base` (the object an earlier occurrence built), copied as a merge
 * into a base copies them; NULL on failure. */
static PyObject *merged_start(Ctx *c, Plan *plan, PyObject *base, Py_ssize_t depth) {
    if (!plan_usable(plan) || plan->hier == NULL) {
        return NULL;
    }
    Merged *m = PyMem_Calloc(1, sizeof(Merged));
    if (m == NULL) {
        return PyErr_NoMemory();
    }
    m->plan = plan;
    Py_INCREF((PyObject *)plan);
    m->cls = (PyObject *)Py_TYPE(base);
    Py_INCREF(m->cls);
    m->depth = depth;
    m->nlevels = plan->hier->nlevels;
    m->vals = PyMem_Calloc((size_t)(plan->nfields ? plan->nfields : 1), sizeof(PyObject *));
    m->unknown = PyMem_Calloc((size_t)plan->hier->nlevels, sizeof(Unknown));
    PyObject *capsule = NULL;
    if (m->vals == NULL || m->unknown == NULL) {
        PyErr_NoMemory();
    } else {
        capsule = PyCapsule_New(m, MERGED, merged_free);
    }
    if (capsule == NULL) {
        merged_release(m);
        return NULL;
    }
    DecodeCtx d = {c, plan, m->vals, m->unknown, m->cls, depth};
    if (start_values(&d, base) < 0) {
        Py_DECREF(capsule);
        return NULL;
    }
    c->merges++;
    return capsule;
}

/* One more occurrence, [p, e), read into `capsule`'s values: 0, or -1. */
static int merged_read(Ctx *c, PyObject *capsule, const unsigned char *p, const unsigned char *e,
                       Py_ssize_t depth) {
    Merged *m = PyCapsule_GetPointer(capsule, MERGED);
    if (m == NULL || stack_low()) {
        return -1;
    }
    Plan *plan = m->plan;
    if (!plan_usable(plan) || depth > plan->max_depth || depth > NATIVE_MAX_DEPTH) {
        return -1;
    }
    if (take_message(c, plan, p) < 0) {
        return -1;
    }
    DecodeCtx d = {c, plan, m->vals, m->unknown, m->cls, depth};
    if (decode_level(&d, 0, &p, e) < 0 || p != e) {
        return -1;
    }
    if (d.cls != m->cls) {
        Py_INCREF(d.cls);
        Py_SETREF(m->cls, d.cls);
    }
    /* still a value of the field's class (_runtime.of_subtype) */
    return PyObject_IsSubclass(m->cls, plan->cls) == 1 ? 0 : -1;
}

int merged_finish_slot(Ctx *c, PyObject **slot) {
    if (!is_merged(*slot)) {
        return 0;
    }
    Merged *m = PyCapsule_GetPointer(*slot, MERGED);
    if (m == NULL || m->plan->invalid || m->plan->hier == NULL
        || m->plan->hier->nlevels != m->nlevels) {
        return -1;  /* the hierarchy changed meanwhile: the Python codec decides */
    }
    Hier *h = m->plan->hier;
    Py_ssize_t final = h->requested;
    for (Py_ssize_t k = 0; k < h->nlevels; k++) {
        if (h->levels[k].cls == m->cls) {
            final = k;
            break;
        }
    }
    DecodeCtx d = {c, m->plan, m->vals, m->unknown, m->cls, m->depth};
    PyObject *obj = build_level(&d, final);
    if (obj == NULL) {
        return -1;
    }
    Py_SETREF(*slot, obj);
    return 0;
}

PyObject *hier_decode(Ctx *c, Plan *plan, const unsigned char *p, const unsigned char *end,
                      Py_ssize_t depth, PyObject *base) {
    if (!plan_usable(plan) || plan->hier == NULL || depth > plan->max_depth
        || depth > NATIVE_MAX_DEPTH) {
        return NULL;
    }
    if (take_message(c, plan, p) < 0) {
        return NULL;
    }
    Hier *h = plan->hier;
    Py_ssize_t n = plan->nfields;
    PyObject *small[24];
    Unknown small_unknown[8];
    PyObject **vals = small;
    Unknown *unknown = small_unknown;
    memset(small, 0, sizeof(small));
    memset(small_unknown, 0, sizeof(small_unknown));
    if (n > 24) {
        vals = PyMem_Calloc((size_t)n, sizeof(PyObject *));
    }
    if (h->nlevels > 8) {
        unknown = PyMem_Calloc((size_t)h->nlevels, sizeof(Unknown));
    }
    PyObject *obj = NULL;
    if (vals == NULL || unknown == NULL) {
        PyErr_NoMemory();
        goto done;
    }
    const Level *requested = &h->levels[h->requested];
    DecodeCtx d = {c, plan, vals, unknown,
                   base ? (PyObject *)Py_TYPE(base) : requested->cls, depth};
    if (start_values(&d, base) < 0 || decode_level(&d, 0, &p, end) < 0 || p != end) {
        goto done;
    }
    if (base == NULL && d.cls != requested->cls) {
        /* a subtype that is not the requested class nor one of its own: Python's error */
        int is = PyObject_IsSubclass(d.cls, requested->cls);
        if (is != 1) {
            goto done;
        }
    }
    Py_ssize_t final = h->requested;
    for (Py_ssize_t k = 0; k < h->nlevels; k++) {
        if (h->levels[k].cls == d.cls) {
            final = k;
            break;
        }
    }
    obj = build_level(&d, final);
done:
    if (vals != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) {
            Py_XDECREF(vals[i]);
        }
        if (vals != small) {
            PyMem_Free(vals);
        }
    }
    if (unknown != NULL) {
        for (Py_ssize_t i = 0; i < h->nlevels; i++) {
            PyMem_Free(unknown[i].data);
        }
        if (unknown != small_unknown) {
            PyMem_Free(unknown);
        }
    }
    return obj;
}
