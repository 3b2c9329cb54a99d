/* The planner's common field shapes in C: field_specs.
 *
 * plan.py builds a contract's plan spec once per contract, when it is planned:
 * compile(), or the first call that meets one of its values.  Most fields take one
 * of three shapes -- a singular scalar compared with its default, a repeated field,
 * a map, each numbered below 16 -- whose 16-tuple (plan.c's field_setup) follows
 * from a handful of FieldInfo attributes.  Written out in Python that was a fifth of
 * compile()'s time; here it is a few attribute reads and one tuple per field.
 *
 * Every decision stays plan.py's: a field of any other shape (a group, a number of 16
 * or more, required, optional, a presence kind: message, Timestamp, Duration,
 * bcl.DateTime) is handed to the planner's `any_field(f, oneof, value)`, which takes
 * each decision in turn; a value spec not in the planner's cache comes from its
 * `value(vt)`; a default the vetting did not convert comes from `default_cmp(f)`.
 * tests/test_plan_shapes.py checks that every shape gets any_field's spec.
 */
#include "plan.h"

static const char *const FIELD_ATTRS[FA_COUNT] = {
    [FA_NAME] = "name",         [FA_TAG] = "tag",
    [FA_LABEL] = "label",       [FA_VALUE] = "value",
    [FA_KEY] = "key",           [FA_CONTAINER] = "container",
    [FA_PACKED] = "packed",     [FA_REQUIRED] = "required",
    [FA_GROUP] = "group",       [FA_DEFAULT] = "default",
    [FA_DEFAULT_FACTORY] = "default_factory",
    [FA_KIND] = "kind",
};

/* consts: the planner's module constants, one tuple (plan.py's _FIELD_CONSTS). */
enum {
    C_DEFAULT_CMP, C_MISSING, C_SINGULAR, C_REPEATED, C_MAP, C_PRESENCE,
    C_WIRE_TYPES, C_SMALL_TAGS, C_COUNT
};

typedef struct {
    EngineState *st;
    PyObject *values;     /* the planner's _values: id(vt) -> (vt, spec) */
    PyObject *cmps;       /* the planner's _cmps: id(f) -> default compared with */
    PyObject *value;      /* the planner's _value(vt) */
    PyObject *any_field;  /* the planner's _any_field(f, oneof, value) */
    PyObject *const *c;   /* consts' items */
} Planner;

static PyObject *attr(const Planner *p, PyObject *obj, int which) {
    return PyObject_GetAttr(obj, p->st->field_attr[which]);
}

/* vt's value spec: the planner's cache (what _value would return), else _value(vt). */
static PyObject *value_spec(const Planner *p, PyObject *vt) {
    PyObject *id = PyLong_FromVoidPtr(vt);
    if (id == NULL) {
        return NULL;
    }
    PyObject *known = PyDict_GetItemWithError(p->values, id);  /* borrowed */
    Py_DECREF(id);
    if (known != NULL && PyTuple_Check(known) && PyTuple_GET_SIZE(known) == 2
        && PyTuple_GET_ITEM(known, 0) == vt) {
        return Py_NewRef(PyTuple_GET_ITEM(known, 1));
    }
    if (PyErr_Occurred()) {
        return NULL;
    }
    return PyObject_CallOneArg(p->value, vt);
}

/* The default f is compared with: the one vetting converted (taken out of cmps, as the
 * planner's dict.pop), else default_cmp(f). */
static PyObject *default_compared(const Planner *p, PyObject *f) {
    PyObject *id = PyLong_FromVoidPtr(f);
    if (id == NULL) {
        return NULL;
    }
    PyObject *cmp = PyDict_GetItemWithError(p->cmps, id);  /* borrowed */
    if (cmp != NULL) {
        Py_INCREF(cmp);
        if (PyDict_DelItem(p->cmps, id) < 0) {
            Py_DECREF(cmp);
            cmp = NULL;
        }
        Py_DECREF(id);
        return cmp;
    }
    Py_DECREF(id);
    if (PyErr_Occurred()) {
        return NULL;
    }
    return PyObject_CallOneArg(p->c[C_DEFAULT_CMP], f);
}

static PyObject *hand_over(const Planner *p, PyObject *f, PyObject *oneof, PyObject *value) {
    PyObject *args[3] = {f, oneof, value != NULL ? value : Py_None};
    return PyObject_Vectorcall(p->any_field, args, 3, NULL);
}

/* One field's spec: plan.py's shapes written out, any other handed to any_field. */
static PyObject *field_spec(const Planner *p, PyObject *f, PyObject *oneof) {
    PyObject *group = attr(p, f, FA_GROUP);
    if (group == NULL) {
        return NULL;
    }
    int is_group = PyObject_IsTrue(group);
    Py_DECREF(group);
    if (is_group < 0) {
        return NULL;
    }
    if (is_group) {
        return hand_over(p, f, oneof, NULL);
    }
    PyObject *out = NULL, *vt = NULL, *kind = NULL, *label = NULL, *number = NULL;
    PyObject *value = NULL, *name = NULL, *packed = NULL, *cmp = NULL, *factory = NULL;
    PyObject *init_value = NULL, *container = NULL, *key = NULL, *key_spec = NULL;
    if ((vt = attr(p, f, FA_VALUE)) == NULL || (kind = attr(p, vt, FA_KIND)) == NULL
        || (label = attr(p, f, FA_LABEL)) == NULL || (number = attr(p, f, FA_TAG)) == NULL
        || (value = value_spec(p, vt)) == NULL) {
        goto done;
    }
    long n = PyLong_AsLong(number);
    if (n == -1 && PyErr_Occurred()) {
        goto done;
    }
    int shape;  /* the label number of a shape written out here; -1: handed over */
    if (n < 1 || n >= 16) {
        shape = -1;
    } else if (label == p->c[C_SINGULAR]) {
        shape = L_SINGULAR;
    } else if (label == p->c[C_REPEATED]) {
        shape = L_REPEATED;
    } else if (label == p->c[C_MAP]) {
        shape = L_MAP;
    } else {
        shape = -1;
    }
    if (shape == L_SINGULAR) {
        PyObject *required = attr(p, f, FA_REQUIRED);
        int req = required == NULL ? -1 : PyObject_IsTrue(required);
        Py_XDECREF(required);
        if (req < 0) {
            goto done;
        }
        int presence = req ? 1 : PySet_Contains(p->c[C_PRESENCE], kind);
        if (presence < 0) {
            goto done;
        }
        if (presence) {
            shape = -1;
        }
    }
    if (shape < 0) {
        out = hand_over(p, f, oneof, value);
        goto done;
    }
    PyObject *wire_type = PyDict_GetItemWithError(p->c[C_WIRE_TYPES], kind);  /* borrowed */
    long wt = wire_type == NULL ? -1 : PyLong_AsLong(wire_type);
    if (wt < 0 || wt > 5) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_ValueError, "planner: a kind without a wire type");
        }
        goto done;
    }
    if ((name = attr(p, f, FA_NAME)) == NULL || (packed = attr(p, f, FA_PACKED)) == NULL) {
        goto done;
    }
    int enc_mode, init_mode, absent_mode;
    if (shape == L_SINGULAR) {  /* compared with its default, which vetting converted */
        if ((cmp = default_compared(p, f)) == NULL
            || (factory = attr(p, f, FA_DEFAULT_FACTORY)) == NULL) {
            goto done;
        }
        enc_mode = ENC_DEFAULT;
        if (factory == Py_None) {
            init_mode = INIT_VALUE, absent_mode = ABSENT_NONE;
            if ((init_value = attr(p, f, FA_DEFAULT)) == NULL) {
                goto done;
            }
            if (init_value == p->c[C_MISSING]) {
                Py_SETREF(init_value, Py_NewRef(Py_None));
            }
        } else {
            init_mode = INIT_NULL, absent_mode = ABSENT_FACTORY;
        }
    } else {
        enc_mode = ENC_ALWAYS, absent_mode = ABSENT_NONE;
        init_mode = shape == L_REPEATED ? INIT_LIST : INIT_DICT;
        if (shape == L_REPEATED) {
            if ((container = attr(p, f, FA_CONTAINER)) == NULL) {
                goto done;
            }
            if (container == (PyObject *)&PyList_Type) {
                Py_CLEAR(container);
            }
        }
    }
    if ((key = attr(p, f, FA_KEY)) == NULL) {
        goto done;
    }
    key_spec = key == Py_None ? Py_NewRef(Py_None) : value_spec(p, key);
    if (key_spec == NULL) {
        goto done;
    }
    PyObject *tags = PyList_GET_ITEM(p->c[C_SMALL_TAGS], n);  /* number n's, by wire type */
    PyObject *shape_number = PyLong_FromLong(shape), *enc = PyLong_FromLong(enc_mode);
    PyObject *init = PyLong_FromLong(init_mode), *absent = PyLong_FromLong(absent_mode);
    if (shape_number != NULL && enc != NULL && init != NULL && absent != NULL) {
        /* (name, number, label, packed, value, key, tag, len_tag, enc_mode, default_cmp,
         *  init_mode, init_value, absent_mode, absent_value, container, oneof) */
        out = PyTuple_Pack(16, name, number, shape_number, packed, value, key_spec,
                           PyList_GET_ITEM(tags, wt), PyList_GET_ITEM(tags, 2), enc,
                           cmp != NULL ? cmp : Py_None, init,
                           init_value != NULL ? init_value : Py_None, absent,
                           factory != NULL && factory != Py_None ? factory : Py_None,
                           container != NULL ? container : Py_None, oneof);
    }
    Py_XDECREF(shape_number);
    Py_XDECREF(enc);
    Py_XDECREF(init);
    Py_XDECREF(absent);
done:
    Py_XDECREF(vt);
    Py_XDECREF(kind);
    Py_XDECREF(label);
    Py_XDECREF(number);
    Py_XDECREF(value);
    Py_XDECREF(name);
    Py_XDECREF(packed);
    Py_XDECREF(cmp);
    Py_XDECREF(factory);
    Py_XDECREF(init_value);
    Py_XDECREF(container);
    Py_XDECREF(key);
    Py_XDECREF(key_spec);
    return out;
}

/* field_specs(slots, oneofs, values, cmps, value, any_field, consts) -> tuple */
static PyObject *field_specs(PyObject *module, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "field_specs takes 7 arguments");
        return NULL;
    }
    PyObject *consts = args[6];
    if (!PyDict_Check(args[2]) || !PyDict_Check(args[3]) || !PyTuple_Check(consts)
        || PyTuple_GET_SIZE(consts) != C_COUNT || !PyDict_Check(PyTuple_GET_ITEM(consts, C_WIRE_TYPES))
        || !PyAnySet_Check(PyTuple_GET_ITEM(consts, C_PRESENCE))
        || !PyList_Check(PyTuple_GET_ITEM(consts, C_SMALL_TAGS))
        || PyList_GET_SIZE(PyTuple_GET_ITEM(consts, C_SMALL_TAGS)) != 16) {
        PyErr_SetString(PyExc_TypeError, "field_specs: bad planner state");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < 16; i++) {
        PyObject *tags = PyList_GET_ITEM(PyTuple_GET_ITEM(consts, C_SMALL_TAGS), i);
        if (!PyList_Check(tags) || PyList_GET_SIZE(tags) != 6) {
            PyErr_SetString(PyExc_TypeError, "field_specs: tags by wire type 0..5");
            return NULL;
        }
    }
    Planner p = {PyModule_GetState(module), args[2], args[3], args[4], args[5],
                 &PyTuple_GET_ITEM(consts, 0)};
    PyObject *slots = PySequence_Fast(args[0], "field_specs: slots are a sequence");
    if (slots == NULL) {
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(slots);
    PyObject *oneofs = NULL, *out = NULL;
    if (args[1] != Py_None) {
        oneofs = PySequence_Fast(args[1], "field_specs: oneofs are a sequence");
        if (oneofs != NULL && PySequence_Fast_GET_SIZE(oneofs) != n) {
            PyErr_SetString(PyExc_ValueError, "field_specs: one oneof number per slot");
            Py_CLEAR(oneofs);
        }
        if (oneofs == NULL) {
            Py_DECREF(slots);
            return NULL;
        }
    }
    PyObject *zero = PyLong_FromLong(0);
    out = zero == NULL ? NULL : PyTuple_New(n);
    for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
        PyObject *oneof = oneofs != NULL ? PySequence_Fast_GET_ITEM(oneofs, i) : zero;
        PyObject *spec = field_spec(&p, PySequence_Fast_GET_ITEM(slots, i), oneof);
        if (spec == NULL) {
            Py_CLEAR(out);
            break;
        }
        PyTuple_SET_ITEM(out, i, spec);
    }
    Py_XDECREF(zero);
    Py_DECREF(slots);
    Py_XDECREF(oneofs);
    return out;
}

static PyMethodDef planner_functions[] = {
    {"field_specs", (PyCFunction)(void (*)(void))field_specs, METH_FASTCALL,
     "field_specs(slots, oneofs, values, cmps, value, any_field, consts) -> tuple: each "
     "slot's field spec (oneofs: each one's oneof number, or None for all 0)."},
    {NULL, NULL, 0, NULL},
};

int engine_add_planner(PyObject *module) {
    EngineState *st = PyModule_GetState(module);
    for (int i = 0; i < FA_COUNT; i++) {
        st->field_attr[i] = PyUnicode_InternFromString(FIELD_ATTRS[i]);
        if (st->field_attr[i] == NULL) {
            return -1;
        }
    }
    return PyModule_AddFunctions(module, planner_functions);
}
