/* The canonical-JSON writer of the engine (see json_write.c). */
#ifndef PROTOATTR_JSON_WRITE_H
#define PROTOATTR_JSON_WRITE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* Adds the JsonWriter type to the engine module (module.c calls it). */
int engine_add_json_write(PyObject *module);

#endif
