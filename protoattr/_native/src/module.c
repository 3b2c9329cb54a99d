/* protoattr._native._engine: module init (PEP 489 multi-phase, module state). */
#include "plan.h"
#include "stack.h"
#include "json_write.h"

static int engine_exec(PyObject *module) {
    EngineState *st = PyModule_GetState(module);
    st->plan_type = (PyTypeObject *)PyType_FromModuleAndSpec(module, &plan_spec, NULL);
    if (st->plan_type == NULL) {
        return -1;
    }
    if (PyModule_AddObjectRef(module, "Plan", (PyObject *)st->plan_type) < 0) {
        return -1;
    }
    if (engine_add_entry_type(module) < 0) {
        return -1;
    }
    if (engine_add_stream(module) < 0) {  /* stream.c */
        return -1;
    }
    if (engine_add_json_write(module) < 0) {  /* json_write.c */
        return -1;
    }
    if (engine_add_json_read(module) < 0) {  /* json_read.c */
        return -1;
    }
    if (engine_add_planner(module) < 0) {  /* planner.c */
        return -1;
    }
    /* Find the importing thread's stack bound now: on Linux's main thread that is
     * glibc reading /proc/self/maps (~0.15 ms), which a program would otherwise
     * pay on its first serialize or deserialize. */
    (void)stack_low();
    st->str_encode = PyUnicode_InternFromString("encode");
    st->str_decode = PyUnicode_InternFromString("decode");
    st->str_value = PyUnicode_InternFromString("value");
    st->str_dict = PyUnicode_InternFromString("__dict__");
    st->empty_bytes = PyBytes_FromStringAndSize(NULL, 0);
    st->object_new = PyObject_GetAttrString((PyObject *)&PyBaseObject_Type, "__new__");
    if (!st->object_new || !st->str_encode || !st->str_decode || !st->str_value || !st->str_dict
        || !st->empty_bytes) {
        return -1;
    }
    /* encode.c: nesting past NATIVE_MAX_DEPTH (a cycle, mostly) is final for the
     * plans (no Python codec re-runs each level: that was ~depth^2 attempts); the
     * model's serialize catches it as the RecursionError it is and names the path */
    PyObject *attrs = Py_BuildValue("{sO}", "_protoattr_final", Py_True);
    if (attrs == NULL) {
        return -1;
    }
    st->encode_too_deep = PyErr_NewExceptionWithDoc(
        "protoattr._native._engine.NestedTooDeeply",
        "An object graph nested past the engine's depth bound (a cycle?) on encode.",
        PyExc_RecursionError, attrs);
    Py_DECREF(attrs);
    if (st->encode_too_deep == NULL
        || PyModule_AddObjectRef(module, "NestedTooDeeply", st->encode_too_deep) < 0) {
        return -1;
    }
    return PyModule_AddIntConstant(module, "NATIVE_MAX_DEPTH", NATIVE_MAX_DEPTH);
}

static int engine_traverse(PyObject *module, visitproc visit, void *arg) {
    EngineState *st = PyModule_GetState(module);
    Py_VISIT(st->plan_type);
    Py_VISIT(st->encode_too_deep);
    return 0;
}

static int engine_clear(PyObject *module) {
    EngineState *st = PyModule_GetState(module);
    Py_CLEAR(st->plan_type);
    Py_CLEAR(st->str_encode);
    Py_CLEAR(st->str_decode);
    Py_CLEAR(st->str_value);
    Py_CLEAR(st->str_dict);
    Py_CLEAR(st->empty_bytes);
    Py_CLEAR(st->object_new);
    Py_CLEAR(st->encode_too_deep);
    for (int i = 0; i < FA_COUNT; i++) {
        Py_CLEAR(st->field_attr[i]);
    }
    return 0;
}

static void engine_free(void *module) {
    engine_clear((PyObject *)module);
}

static PyModuleDef_Slot engine_slots[] = {
    {Py_mod_exec, engine_exec},
    {0, NULL},
};

static struct PyModuleDef engine_module = {
    PyModuleDef_HEAD_INIT,
    .m_name = "protoattr._native._engine",
    .m_doc = "protoattr's C engine: executes per-class plans built by protoattr._native.plan.",
    .m_size = sizeof(EngineState),
    .m_slots = engine_slots,
    .m_traverse = engine_traverse,
    .m_clear = engine_clear,
    .m_free = engine_free,
};

EngineState *engine_state_of_type(PyTypeObject *tp) {
    return PyType_GetModuleState(tp);
}

PyMODINIT_FUNC PyInit__engine(void) {
    return PyModuleDef_Init(&engine_module);
}
