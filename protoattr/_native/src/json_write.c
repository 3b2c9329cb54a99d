/* Canonical proto3 JSON, written in C: JsonWriter.
 *
 * A JsonWriter is one contract's writer for one option set (field-name form,
 * enums as numbers, always_print_fields_with_no_presence); it is planned in
 * Python (protoattr/_json/native_write.py) from the same field steps the
 * Python reference (protoattr/_json/write.py) runs, and writes the text
 * json.dumps would print for the reference's dict - with or without an
 * indent, sort_keys, ensure_ascii - straight into one growing buffer.
 *
 * The exactness rule: whatever the writer does not take on (a value of an
 * unexpected type, a number out of range, a lone surrogate without
 * ensure_ascii, nesting past JSON_MAX_DEPTH...) makes write() return None,
 * and the caller runs the Python reference, which prints the same text or
 * raises the EncodeError.  So nothing here builds an error message.
 */
#include "json_write.h"
#include "engine.h"
#include "json_entry.h"
#include "plan.h"
#include "buffer.h"
#include "timefmt.h"
#include "stack.h"

#include <structmember.h>

#if PY_VERSION_HEX < 0x030B0000
#define PyFloat_Pack4(x, p, le) _PyFloat_Pack4((x), (unsigned char *)(p), (le))
#define PyFloat_Pack8(x, p, le) _PyFloat_Pack8((x), (unsigned char *)(p), (le))
#endif

/* How a field's absence is told (write.py's modes, same numbers). */
enum { M_ALWAYS = 0, M_UNLESS_NONE, M_UNLESS_EMPTY, M_UNLESS_DEFAULT, M_UNLESS_SAME_BITS,
       M_REQUIRED,
       M_UNLESS_ENUM /* write.py's _EnumDefault: absent when the enum's number is def */ };

/* The JSON values of google.protobuf.Value, Struct and ListValue (wkt.py's value_to_json,
 * struct_to_json, list_to_json): kinds of this writer only, beyond plan.h's K_*. */
enum { K_JSON_VALUE = 100, K_JSON_STRUCT = 101, K_JSON_LIST = 102 };
/* pa.Timestamp, pa.Duration and pa.FieldMask messages (JValue.cls: the class), printed as
 * wkt.py's forms print them: RFC 3339 with 0, 3, 6 or 9 digits, "1.5s", "a.b,cD". */
enum { K_TIMESTAMP_MSG = 103, K_DURATION_MSG = 104, K_FIELD_MASK = 105 };
/* pa.Any (JValue.cls: the class; JValue.sub: native_write.py's _AnyTypes tuple (cache,
 * resolve, claims)): the payload decoded by the model's binary entry point and printed by
 * its own writer, after "@type" (wkt.py's any_to_json). */
enum { K_ANY = 106 };

/* Nesting past this is left to the Python reference (its RecursionError, or its text). */
#define JSON_MAX_DEPTH 200

typedef struct {
    int kind;                 /* K_* (plan.h) */
    PyObject *sub;            /* MESSAGE: the JsonWriter of the class (borrowed from spec) */
    PyObject *cls;            /* MESSAGE: the exact class; ENUM: the enum class;
                                 K_JSON_*: the ValueMessage class (printed as null) */
    PyObject *names;          /* ENUM: {number: name}, NULL when enums print as numbers;
                                 K_JSON_*: NullValue.NULL_VALUE (printed as null) */
    int wrapper;              /* a wrappers.proto value: None is null, the bare value is
                                 printed as wkt.py's wrapper_form prints it */
} JValue;

typedef struct {
    PyObject *attr;
    const char *key[2];       /* '"key"' as json.dumps writes it: [ensure_ascii=False, True] */
    Py_ssize_t keylen[2];
    int label;                /* L_* (plan.h) */
    int mode;                 /* M_* */
    PyObject *def;            /* M_UNLESS_DEFAULT: the default compared with == */
    int float32;              /* M_UNLESS_SAME_BITS: packed as float32 (else float64) */
    unsigned char bits[8];    /* M_UNLESS_SAME_BITS: the default's packed bytes */
    const char *printed[2];   /* always_print...: the unset field's text, or NULL */
    Py_ssize_t printedlen[2];
    JValue value;
    JValue key_value;         /* MAP keys */
} JField;

typedef struct {
    PyObject_HEAD
    int ready;
    PyObject *spec;           /* the setup tuple: owns everything the fields borrow */
    PyObject *cls;
    Py_ssize_t nfields;
    JField *fields;
    Py_ssize_t *sorted;       /* field indices in key order (sort_keys) */
    int has_printed;          /* some field prints a default when unset */
    int key_before_type;      /* a key that may sort before "@type" (an Any's payload) */
    int use_dict;             /* fields may be read from an instance's __dict__ (plan.py's
                                 _reads_dict: no data descriptor shadows them) */
    PyTypeObject *self_type;
} JsonWriter;

typedef struct {
    Buf b;
    int indent;               /* spaces per level, -1 for none (one line) */
    int sort;
    int ascii;
    PyDateTime_CAPI *api;
} W;

/* ------------------------------------------------------------------ text pieces */

static inline int put(W *w, const char *s, Py_ssize_t n) {
    return buf_write(&w->b, s, n);
}

static inline int put_char(W *w, char c) {
    if (buf_reserve(&w->b, 1) < 0) {
        return -1;
    }
    w->b.data[w->b.len++] = c;
    return 0;
}

/* The separator before an item of an object or array at nesting `level`
 * (the container's own level; its items are one deeper). */
static int put_sep(W *w, int first, int level) {
    if (w->indent < 0) {
        return first ? 0 : put(w, ", ", 2);
    }
    Py_ssize_t pad = (Py_ssize_t)w->indent * (level + 1);
    if (buf_reserve(&w->b, pad + 2) < 0) {
        return -1;
    }
    char *p = w->b.data + w->b.len;
    if (!first) {
        *p++ = ',';
    }
    *p++ = '\n';
    memset(p, ' ', (size_t)pad);
    w->b.len = (Py_ssize_t)(p - w->b.data) + pad;
    return 0;
}

static int put_close(W *w, int any, int level, char c) {
    if (any && w->indent >= 0) {
        Py_ssize_t pad = (Py_ssize_t)w->indent * level;
        if (buf_reserve(&w->b, pad + 2) < 0) {
            return -1;
        }
        char *p = w->b.data + w->b.len;
        *p++ = '\n';
        memset(p, ' ', (size_t)pad);
        p += pad;
        *p++ = c;
        w->b.len = (Py_ssize_t)(p - w->b.data);
        return 0;
    }
    return put_char(w, c);
}

static int put_u64(W *w, uint64_t v, int quoted) {
    char tmp[24];
    char *e = tmp + sizeof(tmp);
    char *p = e;
    if (quoted) {
        *--p = '"';
    }
    do {
        *--p = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    if (quoted) {
        *--p = '"';
    }
    return put(w, p, e - p);
}

static int put_i64(W *w, int64_t v, int quoted) {
    if (v >= 0) {
        return put_u64(w, (uint64_t)v, quoted);
    }
    char tmp[24];
    char *e = tmp + sizeof(tmp);
    char *p = e;
    uint64_t u = (uint64_t)0 - (uint64_t)v;
    if (quoted) {
        *--p = '"';
    }
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    *--p = '-';
    if (quoted) {
        *--p = '"';
    }
    return put(w, p, e - p);
}

/* repr(d), as json.dumps prints a finite float. */
static int put_repr(W *w, double d) {
    char *s = PyOS_double_to_string(d, 'r', 0, Py_DTSF_ADD_DOT_0, NULL);
    if (s == NULL) {
        return -1;
    }
    int r = put(w, s, (Py_ssize_t)strlen(s));
    PyMem_Free(s);
    return r;
}

static const char HEX[] = "0123456789abcdef";

static inline char *put_u_escape(char *p, Py_UCS4 c) {
    *p++ = '\\';
    *p++ = 'u';
    *p++ = HEX[(c >> 12) & 0xF];
    *p++ = HEX[(c >> 8) & 0xF];
    *p++ = HEX[(c >> 4) & 0xF];
    *p++ = HEX[c & 0xF];
    return p;
}

/* 1 for the ASCII characters json.dumps escapes (with ensure_ascii, DEL too). */
static inline int needs_escape(Py_UCS4 c, int ascii) {
    return c < 0x20 || c == '"' || c == '\\' || (ascii && c >= 0x7F);
}

/* needs_escape for the bytes of an ASCII str, by table: [ensure_ascii][byte] */
#define ESC_CTRL \
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1
#define ESC_QUOTE ['"'] = 1, ['\\'] = 1
static const unsigned char ESCAPES[2][128] = {
    {ESC_CTRL, ESC_QUOTE},
    {ESC_CTRL, ESC_QUOTE, [0x7F] = 1},
};

/* Whether one of the 8 ASCII bytes at p needs escaping (bytes below 0x80: the classic
 * has-zero-byte / has-less-than tricks are exact for them). */
static inline int word_needs_escape(const unsigned char *p, int ascii) {
    const uint64_t ones = UINT64_C(0x0101010101010101), high = UINT64_C(0x8080808080808080);
    uint64_t x;
    memcpy(&x, p, 8);
    uint64_t q = x ^ (ones * '"'), b = x ^ (ones * '\\');
    uint64_t found = ((x - ones * 0x20) & ~x) | ((q - ones) & ~q) | ((b - ones) & ~b);
    if (ascii) {
        uint64_t d = x ^ (ones * 0x7F);
        found |= (d - ones) & ~d;
    }
    return (found & high) != 0;
}

/* One character that needs escaping, written at p (room for 12 bytes). */
static inline char *put_escaped(char *p, Py_UCS4 c) {
    switch (c) {
    case '"': *p++ = '\\'; *p++ = '"'; return p;
    case '\\': *p++ = '\\'; *p++ = '\\'; return p;
    case '\b': *p++ = '\\'; *p++ = 'b'; return p;
    case '\f': *p++ = '\\'; *p++ = 'f'; return p;
    case '\n': *p++ = '\\'; *p++ = 'n'; return p;
    case '\r': *p++ = '\\'; *p++ = 'r'; return p;
    case '\t': *p++ = '\\'; *p++ = 't'; return p;
    default:
        if (c >= 0x10000) {
            Py_UCS4 v = c - 0x10000;
            p = put_u_escape(p, 0xD800 | ((v >> 10) & 0x3FF));
            return put_u_escape(p, 0xDC00 | (v & 0x3FF));
        }
        return put_u_escape(p, c);
    }
}

/* A str as json.dumps quotes it (encode_basestring[_ascii]); -1 for a lone surrogate
 * without ensure_ascii (not UTF-8: the reference decides). */
static int put_string(W *w, PyObject *s) {
    Py_ssize_t n = PyUnicode_GET_LENGTH(s);
    int ascii = w->ascii;
    if (PyUnicode_IS_ASCII(s)) {
        const unsigned char *d = (const unsigned char *)PyUnicode_DATA(s);
        const unsigned char *esc = ESCAPES[ascii != 0];
        if (buf_reserve(&w->b, n + 2) < 0) {
            return -1;
        }
        char *p = w->b.data + w->b.len;
        *p++ = '"';
        Py_ssize_t i = 0;
        for (;;) {
            Py_ssize_t start = i;
            while (i + 8 <= n && !word_needs_escape(d + i, ascii)) {
                i += 8;
            }
            while (i < n && !esc[d[i]]) {
                i++;
            }
            memcpy(p, d + start, (size_t)(i - start));
            p += i - start;
            if (i == n) {
                break;
            }
            /* an escape: up to 6 bytes for one input byte; make room for the rest */
            w->b.len = (Py_ssize_t)(p - w->b.data);
            if (buf_reserve(&w->b, 6 + (n - i) + 1) < 0) {
                return -1;
            }
            p = put_escaped(w->b.data + w->b.len, d[i]);
            i++;
        }
        *p++ = '"';
        w->b.len = (Py_ssize_t)(p - w->b.data);
        return 0;
    }
    int kind = PyUnicode_KIND(s);
    const void *d = PyUnicode_DATA(s);
    /* worst case: 12 bytes (a surrogate pair escaped) per character */
    if (n > (PY_SSIZE_T_MAX - 2) / 12 || buf_reserve(&w->b, 12 * n + 2) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    char *p = w->b.data + w->b.len;
    *p++ = '"';
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_UCS4 c = PyUnicode_READ(kind, d, i);
        if (c < 0x80) {
            if (needs_escape(c, ascii)) {
                p = put_escaped(p, c);
            } else {
                *p++ = (char)c;
            }
        } else if (ascii) {
            p = put_escaped(p, c);
        } else if (c < 0x800) {
            *p++ = (char)(0xC0 | (c >> 6));
            *p++ = (char)(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            if (c >= 0xD800 && c <= 0xDFFF) {
                return -1;
            }
            *p++ = (char)(0xE0 | (c >> 12));
            *p++ = (char)(0x80 | ((c >> 6) & 0x3F));
            *p++ = (char)(0x80 | (c & 0x3F));
        } else {
            *p++ = (char)(0xF0 | (c >> 18));
            *p++ = (char)(0x80 | ((c >> 12) & 0x3F));
            *p++ = (char)(0x80 | ((c >> 6) & 0x3F));
            *p++ = (char)(0x80 | (c & 0x3F));
        }
    }
    *p++ = '"';
    w->b.len = (Py_ssize_t)(p - w->b.data);
    return 0;
}

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* base64.b64encode(v), quoted. */
static int put_base64(W *w, const unsigned char *s, Py_ssize_t n) {
    if (n > (PY_SSIZE_T_MAX - 8) / 2 || buf_reserve(&w->b, (n + 2) / 3 * 4 + 2) < 0) {
        if (!PyErr_Occurred()) {
            PyErr_NoMemory();
        }
        return -1;
    }
    char *p = w->b.data + w->b.len;
    *p++ = '"';
    Py_ssize_t i = 0;
    for (; i + 3 <= n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8 | s[i + 2];
        *p++ = B64[v >> 18];
        *p++ = B64[(v >> 12) & 63];
        *p++ = B64[(v >> 6) & 63];
        *p++ = B64[v & 63];
    }
    if (n - i == 1) {
        uint32_t v = (uint32_t)s[i] << 16;
        *p++ = B64[v >> 18];
        *p++ = B64[(v >> 12) & 63];
        *p++ = '=';
        *p++ = '=';
    } else if (n - i == 2) {
        uint32_t v = (uint32_t)s[i] << 16 | (uint32_t)s[i + 1] << 8;
        *p++ = B64[v >> 18];
        *p++ = B64[(v >> 12) & 63];
        *p++ = B64[(v >> 6) & 63];
        *p++ = '=';
    }
    *p++ = '"';
    w->b.len = (Py_ssize_t)(p - w->b.data);
    return 0;
}

/* ------------------------------------------------------------------ values */

/* An exact int within [lo, hi]. */
static int exact_signed(PyObject *v, int64_t lo, int64_t hi, int64_t *out) {
    return PyLong_CheckExact(v) ? get_signed(v, lo, hi, out) : -1;
}

static int exact_unsigned(PyObject *v, uint64_t hi, uint64_t *out) {
    return PyLong_CheckExact(v) ? get_unsigned(v, hi, out) : -1;
}

static int put_nonfinite(W *w, double d) {
    if (d != d) {
        return put(w, "\"NaN\"", 5);
    }
    return d > 0 ? put(w, "\"Infinity\"", 10) : put(w, "\"-Infinity\"", 11);
}

/* A float field's value: the shortest decimal that reads back as the float32
 * (plan.py's shortest_float32), printed as json.dumps prints that double. */
static int put_float32(W *w, double v) {
    if (v - v != 0.0) {
        return put_nonfinite(w, v);
    }
    float y = (float)v;
    if (isinf(y)) {
        return -1; /* struct.pack's OverflowError: the reference raises */
    }
    double x = (double)y;
    if (x == 0.0) {
        return put_repr(w, x);
    }
    for (int precision = 6; precision < 10; precision++) {
        char *s = PyOS_double_to_string(x, 'g', precision, 0, NULL);
        if (s == NULL) {
            return -1;
        }
        double rounded = PyOS_string_to_double(s, NULL, NULL);
        PyMem_Free(s);
        if (rounded == -1.0 && PyErr_Occurred()) {
            return -1;
        }
        float back = (float)rounded;
        if (isinf(back)) {
            return -1;
        }
        if ((double)back == x) {
            return put_repr(w, rounded);
        }
    }
    return put_repr(w, x);
}

static int write_message(W *w, JsonWriter *jw, PyObject *obj, int level);
/* `obj`'s object; with `type_url`, an Any's: "@type" first, then obj's fields. */
static int write_message_as(W *w, JsonWriter *jw, PyObject *obj, int level, PyObject *type_url);

/* ".123", ".123456" or "" for the microseconds of a datetime/timedelta (time_text.fraction
 * of their nanos: never nine digits) */
static char *put_fraction(char *p, int us) {
    if (us == 0) {
        return p;
    }
    int digits = us % 1000 == 0 ? 3 : 6;
    int x = digits == 3 ? us / 1000 : us;
    *p++ = '.';
    for (int i = digits - 1; i >= 0; i--) {
        p[i] = (char)('0' + x % 10);
        x /= 10;
    }
    return p + digits;
}

static char *put_digits(char *p, int v, int width) {
    for (int i = width - 1; i >= 0; i--) {
        p[i] = (char)('0' + v % 10);
        v /= 10;
    }
    return p + width;
}

/* A datetime as times.timestamp_to_json prints it; only naive and UTC datetimes (any
 * other tzinfo is converted by the reference). */
static int put_timestamp(W *w, PyObject *v) {
    PyDateTime_CAPI *api = w->api;
    if (api == NULL || Py_TYPE(v) != api->DateTimeType) {
        return -1;
    }
    PyObject *tz = PyDateTime_DATE_GET_TZINFO(v);
    if (tz != Py_None && tz != api->TimeZone_UTC) {
        return -1;
    }
    char tmp[40];
    char *p = tmp;
    *p++ = '"';
    p = put_digits(p, PyDateTime_GET_YEAR(v), 4);
    *p++ = '-';
    p = put_digits(p, PyDateTime_GET_MONTH(v), 2);
    *p++ = '-';
    p = put_digits(p, PyDateTime_GET_DAY(v), 2);
    *p++ = 'T';
    p = put_digits(p, PyDateTime_DATE_GET_HOUR(v), 2);
    *p++ = ':';
    p = put_digits(p, PyDateTime_DATE_GET_MINUTE(v), 2);
    *p++ = ':';
    p = put_digits(p, PyDateTime_DATE_GET_SECOND(v), 2);
    p = put_fraction(p, PyDateTime_DATE_GET_MICROSECOND(v));
    *p++ = 'Z';
    *p++ = '"';
    return put(w, tmp, p - tmp);
}

#define DURATION_MAX INT64_C(315576000000)

/* A timedelta as times.duration_to_json prints it. */
static int put_duration(W *w, PyObject *v) {
    PyDateTime_CAPI *api = w->api;
    if (api == NULL || Py_TYPE(v) != api->DeltaType) {
        return -1;
    }
    int64_t total = (int64_t)PyDateTime_DELTA_GET_DAYS(v) * 86400
                    + PyDateTime_DELTA_GET_SECONDS(v);
    if (total > DURATION_MAX + 1 || total < -DURATION_MAX - 1) {
        return -1;
    }
    int64_t micros = total * 1000000 + PyDateTime_DELTA_GET_MICROSECONDS(v);
    int negative = micros < 0;
    uint64_t a = negative ? (uint64_t)0 - (uint64_t)micros : (uint64_t)micros;
    uint64_t seconds = a / 1000000;
    if (seconds > (uint64_t)DURATION_MAX) {
        return -1;
    }
    char tmp[48];
    char *e = tmp + 24;
    char *p = e;
    uint64_t s = seconds;
    do {
        *--p = (char)('0' + s % 10);
        s /= 10;
    } while (s);
    if (negative) {
        *--p = '-';
    }
    *--p = '"';
    e = put_fraction(e, (int)(a % 1000000));
    *e++ = 's';
    *e++ = '"';
    return put(w, p, e - p);
}

/* time_text.fraction: "", ".123", ".123456" or ".123456789" of nanos in 0..999999999. */
static char *put_fraction_ns(char *p, int64_t ns) {
    if (ns == 0) {
        return p;
    }
    int digits = ns % 1000000 == 0 ? 3 : ns % 1000 == 0 ? 6 : 9;
    int64_t x = digits == 3 ? ns / 1000000 : digits == 6 ? ns / 1000 : ns;
    *p++ = '.';
    for (int i = digits - 1; i >= 0; i--) {
        p[i] = (char)('0' + x % 10);
        x /= 10;
    }
    return p + digits;
}

/* The (seconds, nanos) of a pa.Timestamp or pa.Duration instance of exactly `cls`, as
 * exact ints; -1 for anything else (the reference reads them as it reads them). */
static int seconds_nanos(const JValue *jv, PyObject *v, int64_t *seconds, int64_t *nanos) {
    if ((PyObject *)Py_TYPE(v) != jv->cls) {
        return -1;
    }
    PyObject *s = PyObject_GetAttrString(v, "seconds");
    if (s == NULL) {
        return -1;
    }
    PyObject *n = PyObject_GetAttrString(v, "nanos");
    int r = n == NULL || exact_signed(s, INT64_MIN, INT64_MAX, seconds) < 0
            || exact_signed(n, INT64_MIN, INT64_MAX, nanos) < 0 ? -1 : 0;
    Py_DECREF(s);
    Py_XDECREF(n);
    return r;
}

/* A pa.Timestamp as wkt.py's timestamp_text prints it; outside 0001..9999 or with nanos
 * outside 0..999999999 it is the reference's EncodeError. */
static int put_timestamp_msg(W *w, const JValue *jv, PyObject *v) {
    int64_t seconds, nanos;
    if (seconds_nanos(jv, v, &seconds, &nanos) < 0 || seconds < INT64_C(-62135596800)
        || seconds > INT64_C(253402300799) || nanos < 0 || nanos > 999999999) {
        return -1;
    }
    int year, month, day, rest;
    civil_from_seconds(seconds, &year, &month, &day, &rest);
    char tmp[48];
    char *p = tmp;
    *p++ = '"';
    p = put_digits(p, year, 4);
    *p++ = '-';
    p = put_digits(p, month, 2);
    *p++ = '-';
    p = put_digits(p, day, 2);
    *p++ = 'T';
    p = put_digits(p, rest / 3600, 2);
    *p++ = ':';
    p = put_digits(p, rest / 60 % 60, 2);
    *p++ = ':';
    p = put_digits(p, rest % 60, 2);
    p = put_fraction_ns(p, nanos);
    *p++ = 'Z';
    *p++ = '"';
    return put(w, tmp, p - tmp);
}

/* A pa.Duration as wkt.py's duration_text prints it (seconds and nanos of one sign,
 * within +-315,576,000,000 s; else the reference's EncodeError). */
static int put_duration_msg(W *w, const JValue *jv, PyObject *v) {
    int64_t seconds, nanos;
    if (seconds_nanos(jv, v, &seconds, &nanos) < 0 || seconds > DURATION_MAX
        || seconds < -DURATION_MAX || nanos > 999999999 || nanos < -999999999
        || (seconds < 0 && nanos > 0) || (seconds > 0 && nanos < 0)) {
        return -1;
    }
    int negative = seconds < 0 || nanos < 0;
    uint64_t s = (uint64_t)(seconds < 0 ? -seconds : seconds);
    char tmp[48];
    char *e = tmp + 24;
    char *p = e;
    do {
        *--p = (char)('0' + s % 10);
        s /= 10;
    } while (s);
    if (negative) {
        *--p = '-';
    }
    *--p = '"';
    e = put_fraction_ns(e, nanos < 0 ? -nanos : nanos);
    *e++ = 's';
    *e++ = '"';
    return put(w, p, e - p);
}

/* A pa.FieldMask as wkt.py's field_mask_to_json prints it: its snake_case paths in
 * lowerCamelCase, joined by ','.  ASCII paths only (str.isupper's Unicode rules are the
 * reference's); a path it refuses is its EncodeError. */
static int put_field_mask(W *w, const JValue *jv, PyObject *v) {
    if ((PyObject *)Py_TYPE(v) != jv->cls) {
        return -1;
    }
    PyObject *paths = PyObject_GetAttrString(v, "paths");
    if (paths == NULL) {
        return -1;
    }
    int r = -1;
    Buf text;
    buf_init(&text);
    if (!PyTuple_CheckExact(paths)) {
        goto done;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(paths); i++) {
        PyObject *path = PyTuple_GET_ITEM(paths, i);
        if (!PyUnicode_CheckExact(path) || !PyUnicode_IS_ASCII(path)) {
            goto done;
        }
        const char *c = (const char *)PyUnicode_DATA(path);
        Py_ssize_t n = PyUnicode_GET_LENGTH(path);
        if ((i > 0 && buf_write(&text, ",", 1) < 0) || buf_reserve(&text, n) < 0) {
            goto done;
        }
        int after_underscore = 0;
        for (Py_ssize_t j = 0; j < n; j++) {
            char ch = c[j];
            if (ch >= 'A' && ch <= 'Z') {
                goto done;
            }
            if (after_underscore) {
                if (ch < 'a' || ch > 'z') {
                    goto done;
                }
                ch = (char)(ch - 'a' + 'A');
                after_underscore = 0;
            } else if (ch == '_') {
                after_underscore = 1;
                continue;
            }
            text.data[text.len++] = ch;
        }
        if (after_underscore) {
            goto done;
        }
    }
    PyObject *joined = PyUnicode_DecodeASCII(text.len ? text.data : "", text.len, NULL);
    if (joined != NULL) {
        r = put_string(w, joined);
        Py_DECREF(joined);
    }
done:
    buf_free(&text);
    Py_DECREF(paths);
    return r;
}

/* A wrapper's bare value (wkt.py's wrapper_form): no range check on the int kinds, a
 * bool only as True/False; anything unusual (a wrapper message...) is the reference's. */
static int put_wrapped(W *w, const JValue *jv, PyObject *v) {
    int64_t s;
    uint64_t u;
    if (v == Py_None) {
        return put(w, "null", 4);
    }
    switch (jv->kind) {
    case K_INT32: case K_UINT32: case K_INT64: case K_UINT64: {
        int quoted = jv->kind == K_INT64 || jv->kind == K_UINT64;
        if (exact_signed(v, INT64_MIN, INT64_MAX, &s) == 0) {
            return put_i64(w, s, quoted);
        }
        PyErr_Clear();
        if (exact_unsigned(v, UINT64_MAX, &u) == 0) {
            return put_u64(w, u, quoted);
        }
        return -1;
    }
    case K_BOOL:
        if (v == Py_True) return put(w, "true", 4);
        if (v == Py_False) return put(w, "false", 5);
        return -1;
    default:
        return -2; /* the kinds whose plain writer prints it the same */
    }
}

/* An enum value's number: a member of the class (its .value, an int), or a plain int. */
static int enum_number(EngineState *st, const JValue *jv, PyObject *v, int64_t *n) {
    if (PyObject_TypeCheck(v, (PyTypeObject *)jv->cls)) {
        PyObject *num = PyObject_GetAttr(v, st->str_value);
        if (num == NULL) {
            return -1;
        }
        int overflow = 0;
        long long x = PyLong_CheckExact(num) ? PyLong_AsLongLongAndOverflow(num, &overflow) : -1;
        int bad = !PyLong_CheckExact(num) || overflow || (x == -1 && PyErr_Occurred());
        Py_DECREF(num);
        if (bad) {
            return -1;
        }
        *n = (int64_t)x;
        return 0;
    }
    return exact_signed(v, INT32_MIN, INT32_MAX, n);
}

static int write_map(W *w, EngineState *st, const JValue *kv, const JValue *vv, PyObject *d,
                     int level);
static int write_list(W *w, EngineState *st, const JValue *jv, PyObject *seq, int level);

static const JValue STRUCT_KEY = {.kind = K_STRING};

/* A JSON value as wkt.py's value_to_json prints it: every number a double (not finite:
 * the reference's EncodeError), dicts as Structs, lists and tuples as ListValues. */
static int put_json_value(W *w, EngineState *st, const JValue *jv, PyObject *x, int level) {
    if (x == Py_None || x == jv->names || PyObject_TypeCheck(x, (PyTypeObject *)jv->cls)) {
        return put(w, "null", 4);
    }
    if (x == Py_True) {
        return put(w, "true", 4);
    }
    if (x == Py_False) {
        return put(w, "false", 5);
    }
    if (PyUnicode_CheckExact(x)) {
        return put_string(w, x);
    }
    double d;
    if (PyFloat_CheckExact(x) || PyLong_CheckExact(x)) {
        if (get_double(x, &d) < 0 || d - d != 0.0) {
            return -1;
        }
        return put_repr(w, d);
    }
    if (level > JSON_MAX_DEPTH || stack_low()) {
        return -1;
    }
    JValue inner = *jv;
    inner.kind = K_JSON_VALUE;
    if (PyDict_CheckExact(x)) {
        return write_map(w, st, &STRUCT_KEY, &inner, x, level);
    }
    if (PyList_CheckExact(x) || PyTuple_CheckExact(x)) {
        return write_list(w, st, &inner, x, level);
    }
    return -1;
}

/* The payload type of an Any's type name (json_any_entry): (claims list, class, kind,
 * writer, deserialize); NULL (no error): the reference's. */
static PyObject *any_type(const JValue *jv, PyObject *name) {
    return json_any_entry(jv->sub, name);
}

static int write_value(W *w, EngineState *st, const JValue *jv, PyObject *v, int level);
static PyType_Spec jw_spec;

/* A pa.Any as wkt.py's any_to_json prints it: {} when empty; a contract's fields after
 * "@type"; a well-known payload as {"@type": ..., "value": its form} (a Struct, Value or
 * ListValue decoded to its JSON value by the resolver's function). */
static int put_any(W *w, EngineState *st, const JValue *jv, PyObject *v, int level) {
    if ((PyObject *)Py_TYPE(v) != jv->cls || level > JSON_MAX_DEPTH || stack_low()) {
        return -1;
    }
    PyObject *url = PyObject_GetAttrString(v, "type_url");
    PyObject *data = url == NULL ? NULL : PyObject_GetAttrString(v, "value");
    PyObject *name = NULL, *entry = NULL, *obj = NULL;
    int r = -1;
    if (data == NULL || !PyUnicode_CheckExact(url) || !PyBytes_CheckExact(data)) {
        goto done;
    }
    if (PyUnicode_GET_LENGTH(url) == 0 && PyBytes_GET_SIZE(data) == 0) {
        r = put(w, "{}", 2);
        goto done;
    }
    Py_ssize_t slash = PyUnicode_FindChar(url, '/', 0, PyUnicode_GET_LENGTH(url), -1);
    if (slash == -2) {
        goto done;
    }
    name = PyUnicode_Substring(url, slash + 1, PyUnicode_GET_LENGTH(url));
    if (name == NULL || (entry = any_type(jv, name)) == NULL) {
        goto done;
    }
    PyObject *cls = PyTuple_GET_ITEM(entry, 1);
    int kind = (int)PyLong_AsLong(PyTuple_GET_ITEM(entry, 2));
    PyObject *writer = PyTuple_GET_ITEM(entry, 3);
    int json_value = kind >= K_JSON_VALUE && kind <= K_JSON_LIST;
    obj = PyObject_CallFunctionObjArgs(PyTuple_GET_ITEM(entry, 4), cls, data, NULL);
    if (obj == NULL || (!json_value && (PyObject *)Py_TYPE(obj) != cls)) {
        goto done;  /* a payload that does not decode: the reference's DecodeError */
    }
    if (kind == K_MESSAGE) {
        if (strcmp(Py_TYPE(writer)->tp_name, jw_spec.name) != 0) goto done;  /* a JsonWriter */
        r = write_message_as(w, (JsonWriter *)writer, obj, level, url);
        goto done;
    }
    /* a well-known payload: "value" holds its form */
    JValue inner = *jv;
    inner.kind = kind;
    inner.cls = cls;
    inner.wrapper = 0;
    PyObject *x = obj;
    if (json_value) {  /* a Struct, Value, ListValue: obj is its JSON value */
        if (!PyTuple_Check(writer) || PyTuple_GET_SIZE(writer) != 2
            || !PyType_Check(PyTuple_GET_ITEM(writer, 0))) {
            goto done;
        }
        inner.cls = PyTuple_GET_ITEM(writer, 0);    /* ValueMessage: printed as null */
        inner.names = PyTuple_GET_ITEM(writer, 1);  /* NullValue.NULL_VALUE, likewise */
    }
    if (kind < K_JSON_VALUE) {  /* a wrapper message: its bare value */
        inner.wrapper = 1;
        x = PyObject_GetAttrString(obj, "value");
        if (x == NULL) goto done;
    } else {
        Py_INCREF(x);
    }
    if (put_char(w, '{') == 0 && put_sep(w, 1, level) == 0 && put(w, "\"@type\": ", 9) == 0
        && put_string(w, url) == 0 && put_sep(w, 0, level) == 0
        && put(w, "\"value\": ", 9) == 0 && write_value(w, st, &inner, x, level + 1) == 0) {
        r = put_close(w, 1, level, '}');
    }
    Py_DECREF(x);
done:
    Py_XDECREF(url);
    Py_XDECREF(data);
    Py_XDECREF(name);
    Py_XDECREF(entry);
    Py_XDECREF(obj);
    return r;
}

static int write_value(W *w, EngineState *st, const JValue *jv, PyObject *v, int level) {
    int64_t s;
    uint64_t u;
    double d;
    if (jv->wrapper) {
        int r = put_wrapped(w, jv, v);
        if (r != -2) {
            return r;
        }
    }
    switch (jv->kind) {
    case K_INT32: case K_SINT32: case K_SFIXED32:
        if (exact_signed(v, INT32_MIN, INT32_MAX, &s) < 0) return -1;
        return put_i64(w, s, 0);
    case K_UINT32: case K_FIXED32:
        if (exact_unsigned(v, UINT32_MAX, &u) < 0) return -1;
        return put_u64(w, u, 0);
    case K_INT64: case K_SINT64: case K_SFIXED64:
        if (exact_signed(v, INT64_MIN, INT64_MAX, &s) < 0) return -1;
        return put_i64(w, s, 1);
    case K_UINT64: case K_FIXED64:
        if (exact_unsigned(v, UINT64_MAX, &u) < 0) return -1;
        return put_u64(w, u, 1);
    case K_BOOL:
        if (v == Py_True) return put(w, "true", 4);
        if (v == Py_False) return put(w, "false", 5);
        if (exact_signed(v, 0, 1, &s) < 0) return -1;
        return s ? put(w, "true", 4) : put(w, "false", 5);
    case K_DOUBLE:
        if (get_double(v, &d) < 0) return -1;
        if (d - d != 0.0) return put_nonfinite(w, d);
        return put_repr(w, d);
    case K_FLOAT:
        if (get_double(v, &d) < 0) return -1;
        return put_float32(w, d);
    case K_STRING:
        if (!PyUnicode_CheckExact(v)) return -1;
        return put_string(w, v);
    case K_BYTES:
        if (PyBytes_CheckExact(v)) {
            return put_base64(w, (const unsigned char *)PyBytes_AS_STRING(v),
                              PyBytes_GET_SIZE(v));
        }
        if (PyByteArray_CheckExact(v)) {
            return put_base64(w, (const unsigned char *)PyByteArray_AS_STRING(v),
                              PyByteArray_GET_SIZE(v));
        }
        return -1;
    case K_ENUM: {
        if (enum_number(st, jv, v, &s) < 0) return -1;
        if (jv->names != NULL) {
            PyObject *num = PyLong_FromLongLong((long long)s);
            if (num == NULL) return -1;
            PyObject *name = PyDict_GetItemWithError(jv->names, num);
            Py_DECREF(num);
            if (name != NULL) {
                return PyUnicode_CheckExact(name) ? put_string(w, name) : -1;
            }
            if (PyErr_Occurred()) return -1;
        }
        return put_i64(w, s, 0);
    }
    case K_MESSAGE:
        if ((PyObject *)Py_TYPE(v) != jv->cls) return -1;
        return write_message(w, (JsonWriter *)jv->sub, v, level);
    case K_TIMESTAMP:
        return put_timestamp(w, v);
    case K_DURATION:
        return put_duration(w, v);
    case K_JSON_VALUE:
        return put_json_value(w, st, jv, v, level);
    case K_JSON_STRUCT:
        return PyDict_CheckExact(v) ? put_json_value(w, st, jv, v, level) : -1;
    case K_JSON_LIST:
        return PyList_CheckExact(v) || PyTuple_CheckExact(v) ? put_json_value(w, st, jv, v, level)
                                                             : -1;
    case K_TIMESTAMP_MSG:
        return put_timestamp_msg(w, jv, v);
    case K_DURATION_MSG:
        return put_duration_msg(w, jv, v);
    case K_FIELD_MASK:
        return put_field_mask(w, jv, v);
    case K_ANY:
        return put_any(w, st, jv, v, level);
    default:
        return -1;
    }
}

/* ------------------------------------------------------------------ containers */

static int write_list(W *w, EngineState *st, const JValue *jv, PyObject *seq, int level) {
    if (!PyList_CheckExact(seq) && !PyTuple_CheckExact(seq)) {
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (put_char(w, '[') < 0) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        /* re-read each time: nothing here runs Python code that could resize it, but
         * the size check keeps a list shrunk by a property getter safe */
        if (i >= PySequence_Fast_GET_SIZE(seq)) {
            return -1;
        }
        PyObject *x = PySequence_Fast_GET_ITEM(seq, i);
        Py_INCREF(x);
        int r = put_sep(w, i == 0, level) < 0 ? -1 : write_value(w, st, jv, x, level + 1);
        Py_DECREF(x);
        if (r < 0) {
            return -1;
        }
    }
    return put_close(w, n > 0, level, ']');
}

/* A map key as its JSON object key; its text for sorting in *text (ints and bools). */
typedef struct {
    PyObject *key;
    PyObject *value;
    char text[24];            /* int/bool keys: the quoted decimal (or "true"/"false") */
    int textlen;
} MapItem;

static int key_text(const JValue *kv, PyObject *k, MapItem *item) {
    int64_t s;
    uint64_t u;
    char tmp[24];
    char *e = tmp + sizeof(tmp);
    char *p = e;
    switch (kv->kind) {
    case K_STRING:
        item->textlen = -1;
        return PyUnicode_CheckExact(k) ? 0 : -1;
    case K_BOOL:
        if (k == Py_True) { s = 1; }
        else if (k == Py_False) { s = 0; }
        else if (exact_signed(k, 0, 1, &s) < 0) { return -1; }
        memcpy(item->text, s ? "\"true\"" : "\"false\"", s ? 6 : 7);
        item->textlen = s ? 6 : 7;
        return 0;
    case K_INT32: case K_SINT32: case K_SFIXED32:
    case K_INT64: case K_SINT64: case K_SFIXED64: {
        int wide = kv->kind == K_INT64 || kv->kind == K_SINT64 || kv->kind == K_SFIXED64;
        int64_t lo = wide ? INT64_MIN : INT32_MIN;
        int64_t hi = wide ? INT64_MAX : INT32_MAX;
        if (exact_signed(k, lo, hi, &s) < 0) return -1;
        u = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
        *--p = '"';
        do { *--p = (char)('0' + u % 10); u /= 10; } while (u);
        if (s < 0) *--p = '-';
        *--p = '"';
        break;
    }
    case K_UINT32: case K_FIXED32: case K_UINT64: case K_FIXED64: {
        uint64_t hi = (kv->kind == K_UINT32 || kv->kind == K_FIXED32) ? UINT32_MAX : UINT64_MAX;
        if (exact_unsigned(k, hi, &u) < 0) return -1;
        *--p = '"';
        do { *--p = (char)('0' + u % 10); u /= 10; } while (u);
        *--p = '"';
        break;
    }
    default:
        return -1;
    }
    item->textlen = (int)(e - p);
    memcpy(item->text, p, (size_t)item->textlen);
    return 0;
}

/* sort_keys order: str keys by code point (UTF-8 order), int keys by their text */
static int item_cmp(const void *a, const void *b) {
    const MapItem *x = a, *y = b;
    if (x->textlen < 0) {
        /* exact str keys: PyUnicode_Compare cannot fail */
        return PyUnicode_Compare(x->key, y->key);
    }
    /* compare the texts without their opening quote: '"' sorts below every digit,
     * '-' and letter, so the closing quote ends a prefix correctly */
    int n = x->textlen < y->textlen ? x->textlen : y->textlen;
    int c = memcmp(x->text + 1, y->text + 1, (size_t)n - 1);
    return c != 0 ? c : x->textlen - y->textlen;
}

static int write_map_key(W *w, const MapItem *item) {
    if (item->textlen < 0) {
        return put_string(w, item->key);
    }
    return put(w, item->text, item->textlen);
}

static int write_map(W *w, EngineState *st, const JValue *kv, const JValue *vv, PyObject *d,
                     int level) {
    if (!PyDict_CheckExact(d)) {
        return -1;
    }
    Py_ssize_t n = PyDict_GET_SIZE(d);
    MapItem stack_items[16];
    MapItem *items = stack_items;
    if (n > 16) {
        items = PyMem_Malloc(sizeof(MapItem) * (size_t)n);
        if (items == NULL) {
            PyErr_NoMemory();
            return -1;
        }
    }
    Py_ssize_t pos = 0, count = 0;
    PyObject *k, *v;
    int r = 0;
    while (PyDict_Next(d, &pos, &k, &v)) {
        if (count >= n || key_text(kv, k, &items[count]) < 0) {
            r = -1;
            break;
        }
        items[count].key = k;
        items[count].value = v;
        Py_INCREF(k);
        Py_INCREF(v);
        count++;
    }
    if (r == 0 && w->sort && count > 1) {
        qsort(items, (size_t)count, sizeof(MapItem), item_cmp);
    }
    if (r == 0) {
        r = put_char(w, '{');
    }
    for (Py_ssize_t i = 0; r == 0 && i < count; i++) {
        if (put_sep(w, i == 0, level) < 0 || write_map_key(w, &items[i]) < 0
            || put(w, ": ", 2) < 0
            || write_value(w, st, vv, items[i].value, level + 1) < 0) {
            r = -1;
        }
    }
    if (r == 0) {
        r = put_close(w, count > 0, level, '}');
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        Py_DECREF(items[i].key);
        Py_DECREF(items[i].value);
    }
    if (items != stack_items) {
        PyMem_Free(items);
    }
    return r;
}

/* ------------------------------------------------------------------ messages */

/* 1: the field is left out (its mode says absent), 0: written, -1: not taken. */
static int is_absent(EngineState *st, const JField *f, PyObject *v) {
    switch (f->mode) {
    case M_ALWAYS:
        return 0;
    case M_UNLESS_NONE:
        return v == Py_None;
    case M_REQUIRED:
        return v == Py_None ? -1 : 0;
    case M_UNLESS_EMPTY:
        if (f->label == L_MAP) {
            return PyDict_CheckExact(v) ? PyDict_GET_SIZE(v) == 0 : -1;
        }
        if (PyList_CheckExact(v) || PyTuple_CheckExact(v)) {
            return Py_SIZE(v) == 0;
        }
        return -1;
    case M_UNLESS_SAME_BITS: {
        double d;
        unsigned char bits[8];
        if (get_double(v, &d) < 0) {
            return -1;
        }
        int r = f->float32 ? PyFloat_Pack4(d, (char *)bits, 1) : PyFloat_Pack8(d, (char *)bits, 1);
        if (r < 0) {
            return -1;
        }
        return memcmp(bits, f->bits, f->float32 ? 4 : 8) == 0;
    }
    case M_UNLESS_ENUM: {
        int64_t n;
        long long d = PyLong_AsLongLong(f->def);
        if ((d == -1 && PyErr_Occurred()) || enum_number(st, &f->value, v, &n) < 0) {
            return -1;
        }
        return n == (int64_t)d;
    }
    case M_UNLESS_DEFAULT: {
        /* `v == default`, as the reference compares: for exact str, int and bool (whose ==
         * is reflexive) PyObject_RichCompareBool's identity shortcut changes nothing */
        PyTypeObject *tv = Py_TYPE(v);
        if (tv == Py_TYPE(f->def)
            && (tv == &PyUnicode_Type || tv == &PyLong_Type || tv == &PyBool_Type)) {
            return PyObject_RichCompareBool(v, f->def, Py_EQ);
        }
        PyObject *eq = PyObject_RichCompare(v, f->def, Py_EQ);
        if (eq == NULL) {
            return -1;
        }
        int r = eq == Py_True ? 1 : eq == Py_False ? 0 : PyObject_IsTrue(eq);
        Py_DECREF(eq);
        return r;
    }
    default:
        return -1;
    }
}

static int write_field_value(W *w, EngineState *st, const JField *f, PyObject *v, int level) {
    if (f->label == L_REPEATED) {
        return write_list(w, st, &f->value, v, level);
    }
    if (f->label == L_MAP) {
        return write_map(w, st, &f->key_value, &f->value, v, level);
    }
    return write_value(w, st, &f->value, v, level);
}

static int put_key(W *w, const JField *f) {
    int a = w->ascii;
    if (buf_reserve(&w->b, f->keylen[a] + 2) < 0) {
        return -1;
    }
    memcpy(w->b.data + w->b.len, f->key[a], (size_t)f->keylen[a]);
    w->b.len += f->keylen[a];
    w->b.data[w->b.len++] = ':';
    w->b.data[w->b.len++] = ' ';
    return 0;
}

static int write_message(W *w, JsonWriter *jw, PyObject *obj, int level) {
    return write_message_as(w, jw, obj, level, NULL);
}

static int write_message_as(W *w, JsonWriter *jw, PyObject *obj, int level, PyObject *type_url) {
    if (level > JSON_MAX_DEPTH || !jw->ready || stack_low()) {
        return -1; /* stack_low: a small thread stack nearly used up (stack.h) */
    }
    if (type_url != NULL && w->sort && jw->key_before_type) {
        return -1; /* "@type" would not come first: the reference's order */
    }
    EngineState *st = engine_state_of_type(jw->self_type);
    Py_ssize_t n = jw->nfields;
    char unset_stack[64];
    char *unset = NULL;
    int two_pass = jw->has_printed && !w->sort;
    if (two_pass) {
        unset = n <= 64 ? unset_stack : PyMem_Malloc((size_t)n);
        if (unset == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        memset(unset, 0, (size_t)n);
    }
    PyObject *dict = NULL;
    if (jw->use_dict && (PyObject *)Py_TYPE(obj) == jw->cls) {
        dict = PyObject_GenericGetDict(obj, NULL);
        if (dict == NULL) {
            if (unset != unset_stack) {
                PyMem_Free(unset);
            }
            return -1;
        }
    }
    int r = put_char(w, '{');
    int any = 0;
    if (r == 0 && type_url != NULL) {
        r = put_sep(w, 1, level) < 0 || put(w, "\"@type\": ", 9) < 0 || put_string(w, type_url) < 0
                ? -1
                : 0;
        any = 1;
    }
    for (Py_ssize_t j = 0; r == 0 && j < n; j++) {
        Py_ssize_t i = w->sort ? jw->sorted[j] : j;
        const JField *f = &jw->fields[i];
        PyObject *v = dict == NULL ? NULL : PyDict_GetItemWithError(dict, f->attr);
        if (v != NULL) {
            Py_INCREF(v);
        } else if (PyErr_Occurred() || (v = PyObject_GetAttr(obj, f->attr)) == NULL) {
            r = -1;
            break;
        }
        int absent = is_absent(st, f, v);
        if (absent < 0) {
            r = -1;
        } else if (!absent) {
            if (put_sep(w, !any, level) < 0 || put_key(w, f) < 0
                || write_field_value(w, st, f, v, level + 1) < 0) {
                r = -1;
            }
            any = 1;
        } else if (f->printed[0] != NULL) {
            if (two_pass) {
                unset[i] = 1;
            } else if (put_sep(w, !any, level) < 0 || put_key(w, f) < 0
                       || put(w, f->printed[w->ascii], f->printedlen[w->ascii]) < 0) {
                r = -1;
            } else {
                any = 1;
            }
        }
        Py_DECREF(v);
    }
    if (two_pass) {
        for (Py_ssize_t i = 0; r == 0 && i < n; i++) {
            const JField *f = &jw->fields[i];
            if (unset[i]) {
                if (put_sep(w, !any, level) < 0 || put_key(w, f) < 0
                    || put(w, f->printed[w->ascii], f->printedlen[w->ascii]) < 0) {
                    r = -1;
                }
                any = 1;
            }
        }
        if (unset != unset_stack) {
            PyMem_Free(unset);
        }
    }
    Py_XDECREF(dict);
    if (r == 0) {
        r = put_close(w, any, level, '}');
    }
    return r;
}

/* ------------------------------------------------------------------ the type */

static void jw_release(JsonWriter *self) {
    self->ready = 0;
    PyMem_Free(self->fields);
    self->fields = NULL;
    PyMem_Free(self->sorted);
    self->sorted = NULL;
    self->nfields = 0;
    self->cls = NULL;
}

static int jw_traverse(JsonWriter *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->spec);
    return 0;
}

static int jw_clear(JsonWriter *self) {
    jw_release(self);
    Py_CLEAR(self->spec);
    return 0;
}

static void jw_dealloc(JsonWriter *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    jw_clear(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyObject *jw_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    if (PyTuple_GET_SIZE(args) != 0 || (kwds != NULL && PyDict_GET_SIZE(kwds) != 0)) {
        PyErr_SetString(PyExc_TypeError, "JsonWriter() takes no arguments");
        return NULL;
    }
    JsonWriter *self = (JsonWriter *)type->tp_alloc(type, 0);
    if (self != NULL) {
        self->self_type = type;
    }
    return (PyObject *)self;
}

static int bytes_arg(PyObject *o, const char **s, Py_ssize_t *n, int optional) {
    if (o == Py_None && optional) {
        *s = NULL;
        *n = 0;
        return 0;
    }
    if (!PyBytes_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: expected bytes");
        return -1;
    }
    *s = PyBytes_AS_STRING(o);
    *n = PyBytes_GET_SIZE(o);
    return 0;
}

/* (kind, sub JsonWriter or None, class or None, names dict or None, wrapper) */
static int value_setup(JsonWriter *self, PyObject *t, JValue *jv) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 5) {
        PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: bad value spec");
        return -1;
    }
    jv->kind = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 0));
    if (jv->kind == -1 && PyErr_Occurred()) {
        return -1;
    }
    PyObject *sub = PyTuple_GET_ITEM(t, 1);
    PyObject *cls = PyTuple_GET_ITEM(t, 2);
    PyObject *names = PyTuple_GET_ITEM(t, 3);
    jv->sub = sub == Py_None ? NULL : sub;
    jv->cls = cls == Py_None ? NULL : cls;
    jv->names = names == Py_None ? NULL : names;
    jv->wrapper = PyObject_IsTrue(PyTuple_GET_ITEM(t, 4));
    if (jv->wrapper < 0) {
        return -1;
    }
    if (jv->kind == K_MESSAGE
        && (jv->sub == NULL || !PyObject_TypeCheck(jv->sub, self->self_type) || jv->cls == NULL)) {
        PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: a message needs its writer");
        return -1;
    }
    if (jv->kind == K_ANY) {
        if (jv->cls == NULL || !PyType_Check(jv->cls) || jv->sub == NULL || !PyTuple_Check(jv->sub)
            || PyTuple_GET_SIZE(jv->sub) != 3 || !PyDict_Check(PyTuple_GET_ITEM(jv->sub, 0))
            || !PyDict_Check(PyTuple_GET_ITEM(jv->sub, 2))) {
            PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: an Any needs its type table");
            return -1;
        }
        return 0;
    }
    if (jv->kind >= K_TIMESTAMP_MSG) {
        if (jv->kind > K_FIELD_MASK || jv->cls == NULL || !PyType_Check(jv->cls)) {
            PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: a well-known message needs its class");
            return -1;
        }
        return 0;
    }
    if (jv->kind >= K_JSON_VALUE && (jv->cls == NULL || !PyType_Check(jv->cls) || jv->names == NULL)) {
        PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: a JSON value needs ValueMessage");
        return -1;
    }
    if (jv->kind == K_ENUM && (jv->cls == NULL || !PyType_Check(jv->cls)
                               || (jv->names != NULL && !PyDict_Check(jv->names)))) {
        PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: an enum needs its class");
        return -1;
    }
    return 0;
}

/* (attr, key_utf8, key_ascii, label, mode, default, bits, printed_utf8, printed_ascii,
 *  value spec, key spec or None) */
static int field_setup(JsonWriter *self, PyObject *t, JField *f) {
    if (!PyTuple_Check(t) || PyTuple_GET_SIZE(t) != 11) {
        PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: bad field spec");
        return -1;
    }
    f->attr = PyTuple_GET_ITEM(t, 0);
    if (!PyUnicode_Check(f->attr)) {
        PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: attribute names are str");
        return -1;
    }
    if (bytes_arg(PyTuple_GET_ITEM(t, 1), &f->key[0], &f->keylen[0], 0) < 0
        || bytes_arg(PyTuple_GET_ITEM(t, 2), &f->key[1], &f->keylen[1], 0) < 0) {
        return -1;
    }
    f->label = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 3));
    f->mode = (int)PyLong_AsLong(PyTuple_GET_ITEM(t, 4));
    if (PyErr_Occurred()) {
        return -1;
    }
    f->def = PyTuple_GET_ITEM(t, 5);
    PyObject *bits = PyTuple_GET_ITEM(t, 6);
    if (f->mode == M_UNLESS_SAME_BITS) {
        if (!PyBytes_Check(bits) || (PyBytes_GET_SIZE(bits) != 4 && PyBytes_GET_SIZE(bits) != 8)) {
            PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: bits are 4 or 8 bytes");
            return -1;
        }
        f->float32 = PyBytes_GET_SIZE(bits) == 4;
        memcpy(f->bits, PyBytes_AS_STRING(bits), (size_t)PyBytes_GET_SIZE(bits));
    }
    if (bytes_arg(PyTuple_GET_ITEM(t, 7), &f->printed[0], &f->printedlen[0], 1) < 0
        || bytes_arg(PyTuple_GET_ITEM(t, 8), &f->printed[1], &f->printedlen[1], 1) < 0) {
        return -1;
    }
    if ((f->printed[0] == NULL) != (f->printed[1] == NULL)) {
        PyErr_SetString(PyExc_TypeError, "JsonWriter.setup: both printed forms or neither");
        return -1;
    }
    if (value_setup(self, PyTuple_GET_ITEM(t, 9), &f->value) < 0) {
        return -1;
    }
    PyObject *key = PyTuple_GET_ITEM(t, 10);
    if (f->label == L_MAP) {
        return value_setup(self, key, &f->key_value);
    }
    return 0;
}

PyDoc_STRVAR(jw_setup_doc,
"setup(cls, fields, sorted, use_dict=False)\n--\n\n"
"Fill the writer of ``cls`` (once): the field specs, their order by key, and whether\n"
"the fields may be read from an instance's ``__dict__``.");

static PyObject *jw_setup(JsonWriter *self, PyObject *args) {
    PyObject *cls, *fields, *sorted;
    int use_dict = 0;
    if (!PyArg_ParseTuple(args, "OO!O!|p:setup", &cls, &PyTuple_Type, &fields, &PyTuple_Type,
                          &sorted, &use_dict)) {
        return NULL;
    }
    if (engine_need_datetime(engine_state_of_type(self->self_type)) < 0) {  /* Timestamps */
        return NULL;
    }
    if (self->spec != NULL) {
        PyErr_SetString(PyExc_RuntimeError, "JsonWriter.setup: already set up");
        return NULL;
    }
    Py_ssize_t n = PyTuple_GET_SIZE(fields);
    if (PyTuple_GET_SIZE(sorted) != n) {
        PyErr_SetString(PyExc_ValueError, "JsonWriter.setup: sorted must list every field");
        return NULL;
    }
    JField *fs = PyMem_Calloc((size_t)(n ? n : 1), sizeof(JField));
    Py_ssize_t *order = PyMem_Calloc((size_t)(n ? n : 1), sizeof(Py_ssize_t));
    if (fs == NULL || order == NULL) {
        PyMem_Free(fs);
        PyMem_Free(order);
        return PyErr_NoMemory();
    }
    int has_printed = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        if (field_setup(self, PyTuple_GET_ITEM(fields, i), &fs[i]) < 0) {
            goto fail;
        }
        has_printed |= fs[i].printed[0] != NULL;
        /* '@' is 0x40: keys starting below 'A' (or escaped) may sort before "@type" */
        unsigned char first = fs[i].keylen[0] > 1 ? (unsigned char)fs[i].key[0][1] : 0;
        self->key_before_type |= first < 'A' || first == '\\';
        Py_ssize_t k = PyLong_AsSsize_t(PyTuple_GET_ITEM(sorted, i));
        if (k < 0 || k >= n) {
            if (!PyErr_Occurred()) {
                PyErr_SetString(PyExc_ValueError, "JsonWriter.setup: bad field index");
            }
            goto fail;
        }
        order[i] = k;
    }
    self->spec = Py_BuildValue("(OOO)", cls, fields, sorted);
    if (self->spec == NULL) {
        goto fail;
    }
    self->cls = cls;
    self->fields = fs;
    self->sorted = order;
    self->nfields = n;
    self->has_printed = has_printed;
    self->use_dict = use_dict;
    self->ready = 1;
    Py_RETURN_NONE;
fail:
    PyMem_Free(fs);
    PyMem_Free(order);
    return NULL;
}

PyDoc_STRVAR(jw_write_doc,
"write(obj, indent, sort_keys, ensure_ascii)\n--\n\n"
"``obj`` as the text ``json.dumps`` prints for the reference's dict, or None when the\n"
"engine does not take it on (the caller then runs the Python reference).");

/* A call's text options into w: 0, or 1 when the engine does not take them (an indent
 * that is not an int or None, flags that are not bools: the reference decides). */
static int w_options(W *w, PyObject *indent, PyObject *sort_keys, PyObject *ensure_ascii) {
    if (indent == Py_None) {
        w->indent = -1;
    } else if (PyLong_CheckExact(indent)) {
        int overflow = 0;
        long x = PyLong_AsLongAndOverflow(indent, &overflow);
        if (overflow || x > 64) {
            PyErr_Clear();
            return 1;
        }
        w->indent = x < 0 ? 0 : (int)x;
    } else {
        return 1;
    }
    if (!PyBool_Check(sort_keys) || !PyBool_Check(ensure_ascii)) {
        return 1;
    }
    w->sort = sort_keys == Py_True;
    w->ascii = ensure_ascii == Py_True;
    return 0;
}

/* The text written (r == 0) as a str, else None (not taken) or NULL; frees the buffer. */
static PyObject *w_finish(W *w, int r) {
    PyObject *result = NULL;
    if (r == 0) {
        if (w->ascii) {
            result = PyUnicode_New(w->b.len, 127);
            if (result != NULL) {
                memcpy(PyUnicode_DATA(result), w->b.data, (size_t)w->b.len);
            }
        } else {
            result = PyUnicode_DecodeUTF8(w->b.data, w->b.len, NULL);
        }
    }
    buf_free(&w->b);
    if (result != NULL) {
        return result;
    }
    if (!engine_may_fall_back()) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The text of obj, or None (not taken: the caller runs the reference), or NULL. */
static PyObject *jw_write_impl(JsonWriter *self, PyObject *obj, PyObject *indent,
                               PyObject *sort_keys, PyObject *ensure_ascii) {
    W w;
    if (!self->ready || (PyObject *)Py_TYPE(obj) != self->cls
        || w_options(&w, indent, sort_keys, ensure_ascii)) {
        Py_RETURN_NONE;
    }
    buf_init(&w.b);
    w.api = (PyDateTime_CAPI *)engine_state_of_type(self->self_type)->datetime_api;
    return w_finish(&w, write_message(&w, self, obj, 0));
}

/* A top-level list or tuple of contract instances (api.py's _contract_items): a JSON
 * array of each item written by its class's writer in `table`; None when an item has
 * none (the caller plans it, or the reference writes the list). */
static PyObject *write_items_impl(PyTypeObject *jw_type, PyObject *table, PyObject *items,
                                  PyObject *indent, PyObject *sort_keys,
                                  PyObject *ensure_ascii) {
    W w;
    if (!PyDict_CheckExact(table) || !(PyList_CheckExact(items) || PyTuple_CheckExact(items))
        || w_options(&w, indent, sort_keys, ensure_ascii)) {
        Py_RETURN_NONE;
    }
    buf_init(&w.b);
    w.api = (PyDateTime_CAPI *)engine_state_of_type(jw_type)->datetime_api;
    int r = put_char(&w, '[');
    Py_ssize_t i = 0;
    for (; r == 0 && i < PySequence_Fast_GET_SIZE(items); i++) {
        PyObject *x = PySequence_Fast_GET_ITEM(items, i);
        Py_INCREF(x);
        PyObject *writer = PyDict_GetItemWithError(table, (PyObject *)Py_TYPE(x));
        if (writer == NULL || Py_TYPE(writer)->tp_dealloc != (destructor)jw_dealloc
            || put_sep(&w, i == 0, 0) < 0) {
            r = -1;
        } else {
            Py_INCREF(writer);
            r = write_message(&w, (JsonWriter *)writer, x, 1);
            Py_DECREF(writer);
        }
        Py_DECREF(x);
    }
    if (r == 0) {
        r = put_close(&w, i > 0, 0, ']');
    }
    return w_finish(&w, r);
}

PyDoc_STRVAR(jw_write_items_doc,
"write_items(table, items, indent, sort_keys, ensure_ascii)\n--\n\n"
"A top-level list of contract instances, each written by its class's writer in\n"
"``table`` ({cls: JsonWriter}); None when the engine does not take it on.");

static PyObject *jw_write_items(PyObject *type, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError,
                        "write_items(table, items, indent, sort_keys, ensure_ascii)");
        return NULL;
    }
    return write_items_impl((PyTypeObject *)type, args[0], args[1], args[2], args[3], args[4]);
}

static PyObject *jw_write(JsonWriter *self, PyObject *const *args, Py_ssize_t nargs) {
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "write(obj, indent, sort_keys, ensure_ascii)");
        return NULL;
    }
    return jw_write_impl(self, args[0], args[1], args[2], args[3]);
}

static PyObject *jw_ready(JsonWriter *self, void *closure) {
    return PyBool_FromLong(self->ready);
}

static PyMethodDef jw_methods[] = {
    {"setup", (PyCFunction)jw_setup, METH_VARARGS, jw_setup_doc},
    {"write", (PyCFunction)(void (*)(void))jw_write, METH_FASTCALL, jw_write_doc},
    {"write_items", (PyCFunction)(void (*)(void))jw_write_items, METH_FASTCALL | METH_CLASS,
     jw_write_items_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef jw_getset[] = {
    {"ready", (getter)jw_ready, NULL, "Whether setup() has filled the writer.", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyType_Slot jw_slots[] = {
    {Py_tp_doc, "One contract's canonical-JSON writer for one option set (json_write.c)."},
    {Py_tp_new, jw_new},
    {Py_tp_dealloc, jw_dealloc},
    {Py_tp_traverse, jw_traverse},
    {Py_tp_clear, jw_clear},
    {Py_tp_methods, jw_methods},
    {Py_tp_getset, jw_getset},
    {0, NULL},
};

static PyType_Spec jw_spec = {
    .name = "protoattr._native._engine.JsonWriter",
    .basicsize = sizeof(JsonWriter),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = jw_slots,
};

/* ------------------------------------------------------------------ the entry point
 *
 * JsonEntry: a native model's to_json as a C callable (the Python method cost
 * more than the writing of a small message: its frames, keyword arguments and
 * look-ups).  Installed on the model instance under "to_json"; it takes
 * to_json(obj, <options>) when the writer of type(obj) for those options is
 * already planned, and hands every other call to the Python method it
 * shadows, which plans (and binds the writers here, see bind()) or runs the
 * reference.  The writers live in the model's JSON plans object: the entry
 * only trusts its tables while model.__dict__["_json_plans"] is the object
 * they were bound with (a hierarchy change replaces it). */

enum { A_TYPE, A_PROTO_NAMES, A_ENUM_INTS, A_ALWAYS, A_INDENT, A_SORT, A_ASCII, A_COUNT };

static const char *const ENTRY_KWS[A_COUNT] = {
    "type", "preserving_proto_field_name", "use_integers_for_enums",
    "always_print_fields_with_no_presence", "indent", "sort_keys", "ensure_ascii",
};

typedef struct {
    JSON_ENTRY_FIELDS         /* tables: a tuple of 8 dicts, by option bits */
    PyObject *kw[A_COUNT];
    PyObject *two;
} JsonEntry;

static PyObject *entry_slow(JsonEntry *self, PyObject *const *args, size_t nargsf,
                            PyObject *kwnames) {
    if (self->slow == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "to_json: the model is being torn down");
        return NULL;
    }
    return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
}

static PyObject *entry_call(JsonEntry *self, PyObject *const *args, size_t nargsf,
                            PyObject *kwnames) {
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 1 || self->plans == NULL || self->model_dict == NULL) {
        return entry_slow(self, args, nargsf, kwnames);
    }
    PyObject *val[A_COUNT] = {Py_None, Py_False, Py_False, Py_False, self->two, Py_False,
                              Py_True};
    Py_ssize_t nkw = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    for (Py_ssize_t i = 0; i < nkw; i++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, i);
        int k = 0;
        while (k < A_COUNT && self->kw[k] != name) {
            k++;
        }
        if (k == A_COUNT) { /* not interned the same: compare the text */
            for (k = 0; k < A_COUNT; k++) {
                if (PyUnicode_Check(name) && PyUnicode_Compare(name, self->kw[k]) == 0) {
                    break;
                }
            }
            if (k == A_COUNT) {
                return entry_slow(self, args, nargsf, kwnames);
            }
        }
        val[k] = args[nargs + i];
    }
    if (val[A_TYPE] != Py_None) {
        return entry_slow(self, args, nargsf, kwnames);
    }
    int bits = 0;
    for (int k = A_PROTO_NAMES; k <= A_ALWAYS; k++) {
        if (val[k] == Py_True) {
            bits |= 1 << (k - A_PROTO_NAMES);
        } else if (val[k] != Py_False) {
            return entry_slow(self, args, nargsf, kwnames);
        }
    }
    PyObject *plans = PyDict_GetItemWithError(self->model_dict, self->str_plans);
    if (plans != self->plans) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        return entry_slow(self, args, nargsf, kwnames);
    }
    PyObject *table = PyTuple_GET_ITEM(self->tables, bits);
    if (PyList_CheckExact(args[0]) || PyTuple_CheckExact(args[0])) {
        PyObject *writer = PyDict_Size(table) ? PyDict_GetItemWithError(
            table, (PyObject *)Py_TYPE(PySequence_Fast_GET_SIZE(args[0])
                                       ? PySequence_Fast_GET_ITEM(args[0], 0) : args[0]))
                                              : NULL;
        if (writer != NULL && Py_TYPE(writer)->tp_dealloc == (destructor)jw_dealloc) {
            PyObject *text = write_items_impl(Py_TYPE(writer), table, args[0], val[A_INDENT],
                                              val[A_SORT], val[A_ASCII]);
            if (text != Py_None) {
                return text;
            }
            Py_DECREF(text);
        } else if (PyErr_Occurred()) {
            return NULL;
        }
        return entry_slow(self, args, nargsf, kwnames);
    }
    PyObject *writer = PyDict_GetItemWithError(table, (PyObject *)Py_TYPE(args[0]));
    if (writer == NULL) {
        if (PyErr_Occurred()) {
            return NULL;
        }
        return entry_slow(self, args, nargsf, kwnames);
    }
    if (Py_TYPE(writer)->tp_dealloc != (destructor)jw_dealloc) { /* None: not taken */
        return entry_slow(self, args, nargsf, kwnames);
    }
    Py_INCREF(writer);
    PyObject *text = jw_write_impl((JsonWriter *)writer, args[0], val[A_INDENT], val[A_SORT],
                                   val[A_ASCII]);
    Py_DECREF(writer);
    if (text != Py_None) {
        return text;
    }
    Py_DECREF(text);
    return entry_slow(self, args, nargsf, kwnames);
}

static PyObject *entry_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    JsonEntry *self = (JsonEntry *)json_entry_new(type, args, kwds, "JsonEntry", "O!O:JsonEntry",
                                                  (vectorcallfunc)entry_call);
    if (self == NULL) {
        return NULL;
    }
    self->two = PyLong_FromLong(2);
    if (self->two == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    for (int k = 0; k < A_COUNT; k++) {
        self->kw[k] = PyUnicode_InternFromString(ENTRY_KWS[k]);
        if (self->kw[k] == NULL) {
            Py_DECREF(self);
            return NULL;
        }
    }
    return (PyObject *)self;
}

PyDoc_STRVAR(entry_bind_doc,
"bind(plans, tables)\n--\n\n"
"Take the writers of ``tables`` (8 dicts by option bits) while the model's\n"
"``_json_plans`` is ``plans``.");

static PyObject *entry_bind(JsonEntry *self, PyObject *args) {
    PyObject *plans, *tables;
    if (!PyArg_ParseTuple(args, "OO!:bind", &plans, &PyTuple_Type, &tables)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(tables) != 8) {
        PyErr_SetString(PyExc_ValueError, "JsonEntry.bind: 8 tables");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < 8; i++) {
        if (!PyDict_CheckExact(PyTuple_GET_ITEM(tables, i))) {
            PyErr_SetString(PyExc_TypeError, "JsonEntry.bind: the tables are dicts");
            return NULL;
        }
    }
    Py_XSETREF(self->plans, Py_NewRef(plans));
    Py_XSETREF(self->tables, Py_NewRef(tables));
    Py_RETURN_NONE;
}

static void entry_dealloc(JsonEntry *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    json_entry_clear((JsonEntryHead *)self);
    Py_CLEAR(self->str_plans);
    Py_CLEAR(self->two);
    for (int k = 0; k < A_COUNT; k++) {
        Py_CLEAR(self->kw[k]);
    }
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyMethodDef entry_methods[] = {
    {"bind", (PyCFunction)entry_bind, METH_VARARGS, entry_bind_doc},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef entry_getset[] = {
    {"__wrapped__", json_entry_wrapped, NULL, "The Python method this entry shadows.", NULL},
    JSON_ENTRY_GETSET_OF_SLOW
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef entry_members[] = {
    JSON_ENTRY_MEMBERS
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot entry_slots[] = {
    {Py_tp_repr, json_entry_repr},
    {Py_tp_new, entry_new},
    {Py_tp_dealloc, entry_dealloc},
    {Py_tp_traverse, json_entry_traverse},
    {Py_tp_clear, json_entry_clear},
    {Py_tp_call, PyVectorcall_Call},
    {Py_tp_methods, entry_methods},
    {Py_tp_getset, entry_getset},
    {Py_tp_members, entry_members},
    {0, NULL},
};

static PyType_Spec entry_spec = {
    .name = "protoattr._native._engine.JsonEntry",
    .basicsize = sizeof(JsonEntry),
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = entry_slots,
};

int engine_add_json_write(PyObject *module) {
    PyObject *tp = PyType_FromModuleAndSpec(module, &jw_spec, NULL);
    if (tp == NULL) {
        return -1;
    }
    int r = PyModule_AddObjectRef(module, "JsonWriter", tp);
    Py_DECREF(tp);
    if (r < 0) {
        return -1;
    }
    tp = PyType_FromModuleAndSpec(module, &entry_spec, NULL);
    if (tp == NULL) {
        return -1;
    }
    r = PyModule_AddObjectRef(module, "JsonEntry", tp);
    Py_DECREF(tp);
    return r;
}
