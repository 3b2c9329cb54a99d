/* Reading canonical proto3 JSON in C: from_json's text straight to the objects.
 *
 * A JsonReader is the JSON side of one contract (protoattr/_json/native_read.py
 * builds it): per field of the binary Plan its keys (JSON name and proto name, as
 * the Python reader's table has them), how its values read and what an absent
 * field becomes; the object is built with the Plan's own constructor call.  One
 * pass over the UTF-8 text, no intermediate JSON values.
 *
 * The Python JSON codec is the reference.  Anything this file does not take on
 * exactly as the reference does -- any error, a duplicate key, an extension or
 * a lone surrogate, a subtle number form -- makes read() return None without a
 * message, and from_json then runs the reference on the whole text, which gives
 * the result or the DecodeError with its JSON path.  So the rule here is only:
 * never accept what the reference refuses, never build a different value.
 */
#include "engine.h"
#include "json_entry.h"
#include "stack.h"

#include "timefmt.h"
#include <structmember.h>
#include <math.h>
#include <string.h>

/* What an absent field becomes (the Python reader's _Level.fill). */
enum { FILL_REQUIRED = 0, FILL_CONSTANT = 1, FILL_FACTORY = 2, FILL_EMPTY = 3 };

/* Nested objects and arrays taken before giving up: the reference's json module
 * recurses on the interpreter's stack, so depths it may refuse are not taken. */
#define JR_MAX_NEST 500
/* Keys of one skipped object checked for duplicates (more: the reference decides). */
#define JR_MAX_SKIP_KEYS 64

typedef struct {
    int kind;                  /* K_* */
    PyObject *sub;             /* MESSAGE: the contract's JsonReader */
    PyObject *names;           /* ENUM: tuple of (name as UTF-8 bytes, member) */
    PyObject *numbers;         /* ENUM: {number: member} */
    int closed;                /* ENUM: unknown numbers are errors */
    int own_level;             /* a message's form (Timestamp, a wrapper's bare value):
                                  a level of nesting of its own */
    PyObject *null;            /* JK_VALUE: what a null reads as (NullValue.NULL_VALUE) */
} JVal;

/* The JSON values of google.protobuf.Value / Struct / ListValue fields (pa.JsonValue,
 * pa.Struct, pa.ListValue: Python values, not messages), beside plan.h's K_* kinds. */
enum { JK_VALUE = 100, JK_STRUCT = 101, JK_LIST = 102 };
/* pa.Timestamp, pa.Duration and pa.FieldMask fields: the message classes, built from their
 * JSON strings by their binary plans' constructor calls (JVal.sub: the Plan). */
enum { JK_TIMESTAMP_MSG = 103, JK_DURATION_MSG = 104, JK_FIELD_MASK = 105 };
/* pa.Any: JVal.sub is native_read.py's _AnyTypes tuple (cache, resolve, claims, Any's plan),
 * JVal.numbers the JsonReader type (a payload contract's reader is checked against it). */
enum { JK_ANY = 106 };

typedef struct {
    int label;                 /* L_* */
    JVal val;
    int key_kind;              /* MAP: the key's K_* */
    int fill;                  /* FILL_* */
    PyObject *fill_value;      /* CONSTANT: the value; FACTORY: the factory */
    PyObject *container;       /* REPEATED: tuple, set... (NULL: list) */
    int oneof;                 /* 1..64, 0 for none */
} JField;

typedef struct {
    char *s;
    Py_ssize_t n;
    Py_ssize_t field;
    int plain;                 /* no '"', '\\' or control byte: the text spells it as is */
} JKey;

typedef struct JsonReader {
    PyObject_HEAD
    int ready;
    PyObject *plan;            /* the contract's binary Plan: its constructor call */
    Py_ssize_t nfields;
    JField *fields;
    Py_ssize_t nkeys;
    JKey *keys;
    int max_depth;
    int ignore_unknown;
    Py_ssize_t fallbacks;      /* reads handed to the reference (a debugging aid) */
} JsonReader;

typedef struct {
    EngineState *st;
    PyDateTime_CAPI *dt;
    const unsigned char *p, *end;
    int ignore_unknown;
    int max_depth;             /* the model's (every reader of a model has the same) */
    int nest;
    char *scratch;             /* unescaped string contents */
    Py_ssize_t scap;
} JCtx;

/* ---- lexing ------------------------------------------------------------------ */

/* JSON's whitespace: ' ', '\t', '\n', '\r' (a table: one load and test per byte) */
static const unsigned char WS[256] = {[' '] = 1, ['\t'] = 1, ['\n'] = 1, ['\r'] = 1};

ENGINE_INLINE void ws(JCtx *c) {
    const unsigned char *p = c->p, *end = c->end;
    while (p < end && WS[*p]) p++;
    c->p = p;
}

static int lit(JCtx *c, const char *word, Py_ssize_t n) {
    if (c->end - c->p < n || memcmp(c->p, word, (size_t)n) != 0) {
        return 0;
    }
    c->p += n;
    return 1;
}

/* Consumes `ch` if it comes next: 1 if it did, 0 if not (nothing consumed). */
ENGINE_INLINE int json_eat(JCtx *c, unsigned char ch) {
    if (c->p < c->end && *c->p == ch) {
        c->p++;
        return 1;
    }
    return 0;
}

/* Between a key and its value: blanks, ':', blanks; 0, or -1 when no ':' follows. */
ENGINE_INLINE int json_colon(JCtx *c) {
    ws(c);
    if (!json_eat(c, ':')) return -1;
    ws(c);
    return 0;
}

/* After an element of an array or object, the one place that decides what comes next:
 * blanks, then ',' and blanks (1: another element follows), or `close` (0: the
 * container ended, `close` consumed); -1 for anything else. */
ENGINE_INLINE int json_next(JCtx *c, unsigned char close) {
    ws(c);
    if (json_eat(c, ',')) {
        ws(c);
        return 1;
    }
    return json_eat(c, close) ? 0 : -1;
}

static int hexval(unsigned char ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

static int hex4(const unsigned char *p, const unsigned char *end, uint32_t *out) {
    if (end - p < 4) return -1;
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(p[i]);
        if (h < 0) return -1;
        v = v << 4 | (uint32_t)h;
    }
    *out = v;
    return 0;
}

static char *put_utf8(char *o, uint32_t cp) {
    if (cp < 0x80) {
        *o++ = (char)cp;
    } else if (cp < 0x800) {
        *o++ = (char)(0xC0 | cp >> 6);
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        *o++ = (char)(0xE0 | cp >> 12);
        *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    } else {
        *o++ = (char)(0xF0 | cp >> 18);
        *o++ = (char)(0x80 | (cp >> 12 & 0x3F));
        *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
        *o++ = (char)(0x80 | (cp & 0x3F));
    }
    return o;
}

/* A JSON string at c->p ('"'): its content (UTF-8, in the text or unescaped into the
 * scratch buffer) in *s and *n, *ascii whether it is all ASCII, *raw whether it had no
 * escapes.  -1: not a string the reference reads as we would (a control character,
 * a bad escape, a lone surrogate). */
static int jr_string(JCtx *c, const char **s, Py_ssize_t *n, int *ascii, int *raw) {
    const unsigned char *p = c->p + 1, *end = c->end;
    unsigned char high = 0;
    const unsigned char *start = p;
    /* eight bytes at a time while none is '"', '\\' or a control character */
    uint64_t high8 = 0;
    while (end - p >= 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        uint64_t q = w ^ 0x2222222222222222ull, b = w ^ 0x5C5C5C5C5C5C5C5Cull;
        uint64_t hit = ((q - 0x0101010101010101ull) & ~q) | ((b - 0x0101010101010101ull) & ~b)
                       | ((w - 0x2020202020202020ull) & ~w);
        if (hit & 0x8080808080808080ull) break;
        high8 |= w;
        p += 8;
    }
    if (high8 & 0x8080808080808080ull) high = 0x80;
    while (p < end) {
        unsigned char ch = *p;
        if (ch == '"') {
            *s = (const char *)start;
            *n = p - start;
            *ascii = !(high & 0x80);
            *raw = 1;
            c->p = p + 1;
            return 0;
        }
        if (ch == '\\' || ch < 0x20) {
            break;
        }
        high |= ch;
        p++;
    }
    if (p >= end || *p < 0x20) {
        return -1;
    }
    /* escapes: find the closing quote, then unescape into the scratch buffer */
    const unsigned char *q = p;
    while (q < end && *q != '"') {
        if (*q < 0x20) return -1;
        q += *q == '\\' ? 2 : 1;
    }
    if (q >= end) {
        return -1;
    }
    Py_ssize_t need = q - start + 4;
    if (need > c->scap) {
        char *buf = PyMem_Realloc(c->scratch, (size_t)need);
        if (buf == NULL) {
            PyErr_NoMemory();
            return -1;
        }
        c->scratch = buf;
        c->scap = need;
    }
    char *o = c->scratch;
    memcpy(o, start, (size_t)(p - start));
    o += p - start;
    while (p < q) {
        unsigned char ch = *p;
        if (ch != '\\') {
            high |= ch;
            *o++ = (char)ch;
            p++;
            continue;
        }
        unsigned char e = p[1];
        p += 2;
        switch (e) {
        case '"': *o++ = '"'; break;
        case '\\': *o++ = '\\'; break;
        case '/': *o++ = '/'; break;
        case 'b': *o++ = '\b'; break;
        case 'f': *o++ = '\f'; break;
        case 'n': *o++ = '\n'; break;
        case 'r': *o++ = '\r'; break;
        case 't': *o++ = '\t'; break;
        case 'u': {
            uint32_t cp;
            if (hex4(p, q, &cp) < 0) return -1;
            p += 4;
            if (cp >= 0xDC00 && cp <= 0xDFFF) return -1;  /* a lone low surrogate */
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                uint32_t lo;
                if (q - p < 6 || p[0] != '\\' || p[1] != 'u' || hex4(p + 2, q, &lo) < 0
                    || lo < 0xDC00 || lo > 0xDFFF) {
                    return -1;  /* a lone high surrogate */
                }
                p += 6;
                cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
            }
            if (cp >= 0x80) high = 0x80;
            o = put_utf8(o, cp);
            break;
        }
        default:
            return -1;
        }
    }
    *s = c->scratch;
    *n = o - c->scratch;
    *ascii = !(high & 0x80);
    *raw = 0;
    c->p = q + 1;
    return 0;
}

static PyObject *make_str(const char *s, Py_ssize_t n, int ascii) {
    if (!ascii) {
        return PyUnicode_DecodeUTF8(s, n, "strict");
    }
    PyObject *out = PyUnicode_New(n, 127);
    if (out != NULL) {
        memcpy(PyUnicode_1BYTE_DATA(out), s, (size_t)n);
    }
    return out;
}

/* A JSON number at c->p, strict grammar: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][-+]?[0-9]+)? */
typedef struct {
    const char *s;
    Py_ssize_t n;
    int is_int;
} Num;

static int is_digit(unsigned char ch) {
    return ch >= '0' && ch <= '9';
}

static int jr_number(JCtx *c, Num *num) {
    const unsigned char *p = c->p, *end = c->end;
    num->s = (const char *)p;
    num->is_int = 1;
    if (p < end && *p == '-') p++;
    if (p >= end || !is_digit(*p)) return -1;
    if (*p == '0') {
        p++;
    } else {
        while (p < end && is_digit(*p)) p++;
    }
    if (p < end && *p == '.') {
        num->is_int = 0;
        p++;
        if (p >= end || !is_digit(*p)) return -1;
        while (p < end && is_digit(*p)) p++;
    }
    if (p < end && (*p == 'e' || *p == 'E')) {
        num->is_int = 0;
        p++;
        if (p < end && (*p == '+' || *p == '-')) p++;
        if (p >= end || !is_digit(*p)) return -1;
        while (p < end && is_digit(*p)) p++;
    }
    /* what follows a number must end it ("01", "1x": the reference refuses) */
    if (p < end && (is_digit(*p) || *p == '.' || *p == 'e' || *p == 'E' || *p == '-'
                    || *p == '+')) {
        return -1;
    }
    num->n = (const char *)p - num->s;
    c->p = p;
    return 0;
}

/* Digits [s, s+n) (optionally signed) as sign and magnitude; -1 on overflow or a
 * non-digit.  Leading zeros and '+' are read as Python's int() reads them. */
static int parse_int_text(const char *s, Py_ssize_t n, int *neg, uint64_t *mag) {
    Py_ssize_t i = 0;
    *neg = 0;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        *neg = s[0] == '-';
        i = 1;
    }
    if (i >= n) return -1;
    uint64_t v = 0;
    for (; i < n; i++) {
        unsigned char ch = (unsigned char)s[i];
        if (!is_digit(ch)) return -1;
        unsigned d = ch - '0';
        if (v > (UINT64_MAX - d) / 10) return -1;
        v = v * 10 + d;
    }
    *mag = v;
    return 0;
}

/* The reference's _NUMBER_TEXT: [-+]?([0-9]+.?[0-9]*|.[0-9]+)([eE][-+]?[0-9]+)? */
static int is_number_text(const char *s, Py_ssize_t n) {
    Py_ssize_t i = 0;
    if (i < n && (s[i] == '-' || s[i] == '+')) i++;
    Py_ssize_t d0 = i;
    while (i < n && is_digit((unsigned char)s[i])) i++;
    Py_ssize_t lead = i - d0;
    if (i < n && s[i] == '.') {
        i++;
        Py_ssize_t f0 = i;
        while (i < n && is_digit((unsigned char)s[i])) i++;
        if (lead == 0 && i == f0) return 0;
    } else if (lead == 0) {
        return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '-' || s[i] == '+')) i++;
        Py_ssize_t e0 = i;
        while (i < n && is_digit((unsigned char)s[i])) i++;
        if (i == e0) return 0;
    }
    return i == n;
}

/* float(text) for a text the grammar above (or JSON's) accepted; -1 if too long. */
static int text_to_double(const char *s, Py_ssize_t n, double *out) {
    char buf[80];
    if (n <= 0 || n >= (Py_ssize_t)sizeof(buf)) return -1;
    memcpy(buf, s, (size_t)n);
    buf[n] = '\0';
    char *stop = NULL;
    double d = PyOS_string_to_double(buf, &stop, NULL);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    if (stop != buf + n) return -1;
    *out = d;
    return 0;
}

/* The integer of kind `kind` from sign and magnitude, range-checked; NULL: out of range. */
static PyObject *int_of(int kind, int neg, uint64_t mag) {
    switch (kind) {
    case K_INT32: case K_SINT32: case K_SFIXED32: case K_ENUM:
        if (neg ? mag > 0x80000000ull : mag > 0x7FFFFFFFull) return NULL;
        return PyLong_FromLongLong(neg ? -(long long)mag : (long long)mag);
    case K_INT64: case K_SINT64: case K_SFIXED64:
        if (neg ? mag > 0x8000000000000000ull : mag > 0x7FFFFFFFFFFFFFFFull) return NULL;
        if (neg) {
            return PyLong_FromLongLong(mag == 0x8000000000000000ull ? INT64_MIN
                                                                    : -(long long)mag);
        }
        return PyLong_FromLongLong((long long)mag);
    case K_UINT32: case K_FIXED32:
        if (mag != 0 && neg) return NULL;
        if (mag > 0xFFFFFFFFull) return NULL;
        return PyLong_FromUnsignedLongLong(mag);
    case K_UINT64: case K_FIXED64:
        if (mag != 0 && neg) return NULL;
        return PyLong_FromUnsignedLongLong(mag);
    default:
        return NULL;
    }
}

/* int(d) of kind `kind` where d is a whole finite double in range; NULL otherwise. */
static PyObject *int_of_double(int kind, double d) {
    if (!isfinite(d) || d != floor(d)) return NULL;
    if (d < 0) {
        if (d < -9223372036854775808.0) return NULL;
        double m = -d;
        uint64_t mag = m >= 9223372036854775808.0 ? 0x8000000000000000ull : (uint64_t)m;
        return int_of(kind, 1, mag);
    }
    if (d >= 18446744073709551616.0) return NULL;
    return int_of(kind, 0, (uint64_t)d);
}

/* ---- skipping (ignore_unknown_fields) ---------------------------------------- */

static int jskip_value(JCtx *c);

/* An object or array the reference parses and then ignores: its syntax, and no key
 * given twice in any object (the reference refuses a duplicate even there). */
static int skip_object(JCtx *c) {
    const char *ks[JR_MAX_SKIP_KEYS];
    Py_ssize_t kn[JR_MAX_SKIP_KEYS];
    int count = 0;
    c->p++;
    ws(c);
    if (json_eat(c, '}')) return 0;
    for (;;) {
        if (c->p >= c->end || *c->p != '"') return -1;
        const char *s;
        Py_ssize_t n;
        int ascii, raw;
        if (jr_string(c, &s, &n, &ascii, &raw) < 0 || !raw || count == JR_MAX_SKIP_KEYS) {
            return -1;
        }
        for (int i = 0; i < count; i++) {
            if (kn[i] == n && memcmp(ks[i], s, (size_t)n) == 0) return -1;
        }
        ks[count] = s;
        kn[count] = n;
        count++;
        if (json_colon(c) < 0) return -1;
        if (jskip_value(c) < 0) return -1;
        int more = json_next(c, '}');
        if (more > 0) continue;
        return more;
    }
}

static int jskip_value(JCtx *c) {
    if (c->p >= c->end) return -1;
    const char *s;
    Py_ssize_t n;
    int ascii, raw, r;
    Num num;
    switch (*c->p) {
    case '"':
        return jr_string(c, &s, &n, &ascii, &raw);
    case '{':
        if (++c->nest > JR_MAX_NEST) return -1;
        r = skip_object(c);
        c->nest--;
        return r;
    case '[':
        if (++c->nest > JR_MAX_NEST) return -1;
        c->p++;
        ws(c);
        if (json_eat(c, ']')) {
            c->nest--;
            return 0;
        }
        for (;;) {
            if (jskip_value(c) < 0) return -1;
            int more = json_next(c, ']');
            if (more > 0) continue;
            if (more < 0) return -1;
            c->nest--;
            return 0;
        }
    case 't':
        return lit(c, "true", 4) ? 0 : -1;
    case 'f':
        return lit(c, "false", 5) ? 0 : -1;
    case 'n':
        return lit(c, "null", 4) ? 0 : -1;
    default:
        return jr_number(c, &num);  /* NaN, Infinity: not taken */
    }
}

/* ---- values ------------------------------------------------------------------ */

static PyObject *jr_message(JCtx *c, JsonReader *r, Py_ssize_t depth);
static PyObject *jr_message_from(JCtx *c, JsonReader *r, Py_ssize_t depth, int after_type);
static PyObject *jr_empty(JCtx *c, JsonReader *r, Py_ssize_t depth);

static int b64v(unsigned char ch) {
    if (ch >= 'A' && ch <= 'Z') return ch - 'A';
    if (ch >= 'a' && ch <= 'z') return ch - 'a' + 26;
    if (ch >= '0' && ch <= '9') return ch - '0' + 52;
    if (ch == '+' || ch == '-') return 62;
    if (ch == '/' || ch == '_') return 63;
    return -1;
}

/* bytes from base64 in either alphabet (mixed too), padded or not, as the
 * reference's _read_bytes accepts it; NULL for what it refuses. */
static PyObject *base64_bytes(const char *s, Py_ssize_t n) {
    Py_ssize_t m = n;
    while (m > 0 && s[m - 1] == '=') m--;
    Py_ssize_t pad = n - m;
    if (pad > 2 || m % 4 == 1 || (pad && n % 4)) return NULL;
    Py_ssize_t out_n = m / 4 * 3 + (m % 4 ? m % 4 - 1 : 0);
    PyObject *out = PyBytes_FromStringAndSize(NULL, out_n);
    if (out == NULL) return NULL;
    unsigned char *o = (unsigned char *)PyBytes_AS_STRING(out);
    uint32_t acc = 0;
    int bits = 0;
    for (Py_ssize_t i = 0; i < m; i++) {
        int v = b64v((unsigned char)s[i]);
        if (v < 0) {
            Py_DECREF(out);
            return NULL;
        }
        acc = acc << 6 | (uint32_t)v;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            *o++ = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    return out;
}

#define FLOAT32_MAX 3.4028234663852886e38
#define FLOAT32_MAX_PRINTED 3.4028235e38

static PyObject *float_of(int kind, double d) {
    if (kind == K_FLOAT) {
        if (d > FLOAT32_MAX || d < -FLOAT32_MAX) {
            if (d != FLOAT32_MAX_PRINTED && d != -FLOAT32_MAX_PRINTED) return NULL;
            d = d > 0 ? FLOAT32_MAX : -FLOAT32_MAX;
        }
        d = (double)(float)d;
    }
    return PyFloat_FromDouble(d);
}

/* The fraction of a Timestamp or Duration, where s[*i] may be its '.': 1 to 9 digits before
 * the last character, as nanoseconds in *ns, *i past them.  0 (nothing read) without a
 * '.'; -1 for no digit or more than 9. */
static int fraction_ns(const char *s, Py_ssize_t n, Py_ssize_t *i, int64_t *ns) {
    if (s[*i] != '.') return 0;
    Py_ssize_t f0 = ++*i;
    while (*i < n - 1 && is_digit((unsigned char)s[*i])) {
        if (*i - f0 < 9) *ns = *ns * 10 + (s[*i] - '0');
        ++*i;
    }
    Py_ssize_t nd = *i - f0;
    if (nd < 1 || nd > 9) return -1;
    for (Py_ssize_t k = nd; k < 9; k++) *ns *= 10;
    return 0;
}

/* An RFC 3339 Timestamp, split: UTC civil time, seconds since the epoch and nanos. */
typedef struct {
    int year, month, day, hour, minute, second;
    int64_t seconds, nanos;
} TsParts;

/* "YYYY-MM-DDTHH:MM:SS[.f{1,9}]" and "Z" or "+hh:mm"/"-hh:mm", as times.py's
 * parse_timestamp reads it (UTC, within 0001-01-01T00:00:00..9999-12-31T23:59:59); -1 for
 * anything else (a bad date, an offset past 23:59...: the reference decides). */
static int ts_parts(const char *s, Py_ssize_t n, TsParts *t) {
    if (n < 20) return -1;
    static const char shape[] = "dddd-dd-ddTdd:dd:dd";
    for (int i = 0; i < 19; i++) {
        if (shape[i] == 'd' ? !is_digit((unsigned char)s[i]) : s[i] != shape[i]) return -1;
    }
    int offset = 0;  /* seconds east of UTC */
    int zulu = s[n - 1] == 'Z';
    Py_ssize_t stop = zulu ? n - 1 : n - 6;
    if (!zulu) {  /* "+hh:mm" */
        const char *o = s + n - 6;
        if (n < 25 || (o[0] != '+' && o[0] != '-') || !is_digit((unsigned char)o[1])
            || !is_digit((unsigned char)o[2]) || o[3] != ':' || !is_digit((unsigned char)o[4])
            || !is_digit((unsigned char)o[5])) {
            return -1;
        }
        int oh = (o[1] - '0') * 10 + (o[2] - '0'), om = (o[4] - '0') * 10 + (o[5] - '0');
        if (oh > 23 || om > 59) return -1;
        offset = (o[0] == '+' ? 1 : -1) * (oh * 3600 + om * 60);
    }
    Py_ssize_t i = 19;
    t->nanos = 0;
    /* the fraction's digits stop before the suffix (fraction_ns reads up to its n - 1) */
    if (fraction_ns(s, stop + 1, &i, &t->nanos) < 0 || i != stop) return -1;
#define D2(k) ((s[k] - '0') * 10 + (s[k + 1] - '0'))
    int year = D2(0) * 100 + D2(2);
    int month = D2(5), day = D2(8), hour = D2(11), minute = D2(14), second = D2(17);
#undef D2
    /* datetime's own checks, without raising (the reference names the error) */
    if (year < 1 || month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59
        || second > 59) {
        return -1;
    }
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    if (day > mdays[month - 1] + (month == 2 && leap)) return -1;
    int64_t secs = days_from_civil(year, month, day) * 86400 + hour * 3600 + minute * 60
                   + second - offset;
    if (secs < -62135596800LL || secs > 253402300799LL) return -1;
    t->seconds = secs;
    if (offset != 0) {  /* the civil time in UTC */
        int rest;
        civil_from_seconds(secs, &year, &month, &day, &rest);
        hour = rest / 3600;
        minute = rest / 60 % 60;
        second = rest % 60;
    }
    t->year = year;
    t->month = month;
    t->day = day;
    t->hour = hour;
    t->minute = minute;
    t->second = second;
    return 0;
}

/* A Timestamp as times.py's timestamp_from_json reads it: the UTC datetime (digits past
 * the microsecond dropped); NULL when not taken. */
static PyObject *timestamp_of(JCtx *c, const char *s, Py_ssize_t n) {
    TsParts t;
    if (ts_parts(s, n, &t) < 0) return NULL;
    PyDateTime_CAPI *api = c->dt;
    return api->DateTime_FromDateAndTime(t.year, t.month, t.day, t.hour, t.minute, t.second,
                                         (int)(t.nanos / 1000), api->TimeZone_UTC,
                                         api->DateTimeType);
}

/* A Duration "[-]S[.f{1,9}]s" as times.py's parse_duration reads it: seconds and nanos of
 * one sign; -1 for anything else (past +-315,576,000,000 s: the reference's error). */
static int duration_parts(const char *s, Py_ssize_t n, int64_t *seconds, int64_t *nanos) {
    Py_ssize_t i = 0;
    int neg = 0;
    if (n < 2 || s[n - 1] != 's') return -1;
    if (s[0] == '-') {
        neg = 1;
        i = 1;
    }
    Py_ssize_t d0 = i;
    int64_t secs = 0;
    while (i < n - 1 && is_digit((unsigned char)s[i])) {
        if (i - d0 >= 12) return -1;  /* past the range (or leading zeros): the reference's */
        secs = secs * 10 + (s[i] - '0');
        i++;
    }
    if (i == d0) return -1;
    int64_t ns = 0;
    if (fraction_ns(s, n, &i, &ns) < 0) return -1;
    if (i != n - 1 || secs > 315576000000LL) return -1;
    *seconds = neg ? -secs : secs;
    *nanos = neg ? -ns : ns;
    return 0;
}

/* A Duration as a timedelta (nanos cut to microseconds towards zero); NULL: not taken. */
static PyObject *duration_of(JCtx *c, const char *s, Py_ssize_t n) {
    int64_t secs, ns;
    if (duration_parts(s, n, &secs, &ns) < 0) return NULL;
    int days = (int)(secs / 86400);
    int rest = (int)(secs % 86400);
    PyDateTime_CAPI *api = c->dt;
    return api->Delta_FromDelta(days, rest, (int)(ns / 1000), 1, api->DeltaType);
}

/* ---- pa.Timestamp, pa.Duration, pa.FieldMask messages ------------------------------ */

/* An instance of a well-known message from its field values, by its binary plan's
 * constructor call (the plan checked at setup: its fields are these, in this order). */
static PyObject *wkt_build(JCtx *c, PyObject *plan, PyObject **vals, Py_ssize_t nvals) {
    Plan *pl = (Plan *)plan;
    if (!pl->ready || pl->invalid || pl->nfields != nvals) return NULL;
    return construct_object(c->st, pl, vals);
}

/* pa.Timestamp(seconds, nanos) / pa.Duration(seconds, nanos) from its JSON string. */
static PyObject *time_message_of(JCtx *c, const JVal *v, const char *s, Py_ssize_t n) {
    int64_t secs, ns;
    if (v->kind == JK_TIMESTAMP_MSG) {
        TsParts t;
        if (ts_parts(s, n, &t) < 0) return NULL;
        secs = t.seconds;
        ns = t.nanos;
    } else if (duration_parts(s, n, &secs, &ns) < 0) {
        return NULL;
    }
    PyObject *vals[2] = {PyLong_FromLongLong(secs), PyLong_FromLongLong(ns)};
    PyObject *obj = NULL;
    if (vals[0] != NULL && vals[1] != NULL) obj = wkt_build(c, v->sub, vals, 2);
    Py_XDECREF(vals[0]);
    Py_XDECREF(vals[1]);
    return obj;
}

/* pa.FieldMask from "a.b,cD" as wkt.py's field_mask_from_json reads it: each lowerCamel
 * path to snake_case; ASCII only (str.isupper's Unicode rules are the reference's), and
 * a '_' in a path is its error. */
static PyObject *field_mask_of(JCtx *c, const JVal *v, const char *s, Py_ssize_t n) {
    PyObject *paths;
    if (n == 0) {
        paths = PyTuple_New(0);
    } else {
        Py_ssize_t count = 1;
        for (Py_ssize_t i = 0; i < n; i++) {
            if (s[i] == '_' || (unsigned char)s[i] >= 0x80) return NULL;
            count += s[i] == ',';
        }
        paths = PyTuple_New(count);
        if (paths == NULL) return NULL;
        char small[128];
        char *buf = (size_t)n * 2 <= sizeof small ? small : PyMem_Malloc((size_t)n * 2);
        if (buf == NULL) {
            Py_DECREF(paths);
            return PyErr_NoMemory();
        }
        Py_ssize_t k = 0, start = 0;
        for (Py_ssize_t i = 0; i <= n; i++) {
            if (i < n && s[i] != ',') continue;
            Py_ssize_t len = 0;
            for (Py_ssize_t j = start; j < i; j++) {
                char ch = s[j];
                if (ch >= 'A' && ch <= 'Z') {
                    buf[len++] = '_';
                    ch = (char)(ch - 'A' + 'a');
                }
                buf[len++] = ch;
            }
            PyObject *path = PyUnicode_DecodeASCII(buf, len, NULL);
            if (path == NULL) {
                Py_DECREF(paths);
                paths = NULL;
                break;
            }
            PyTuple_SET_ITEM(paths, k++, path);
            start = i + 1;
        }
        if (buf != small) PyMem_Free(buf);
    }
    if (paths == NULL) return NULL;
    PyObject *obj = wkt_build(c, v->sub, &paths, 1);
    Py_DECREF(paths);
    return obj;
}

/* ---- Struct, Value, ListValue ---------------------------------------------------- */

/* The JSON values wkt.py's value_from_json / struct_from_json / list_from_json build:
 * null is None inside them, numbers are floats, objects dicts, arrays lists.  Each Value,
 * Struct and ListValue is a message (a map entry of a Struct too), so a level counted
 * against max_depth exactly as those functions count it; past it, or on anything else
 * the reference refuses or reads differently (a duplicate key, NaN, a lone surrogate,
 * a number out of a double's range), -1 and the reference decides. */

static int jv_struct(JCtx *c, Py_ssize_t depth, PyObject **out);
static int jv_list(JCtx *c, Py_ssize_t depth, PyObject **out);

ENGINE_INLINE int jv_depth_ok(JCtx *c, Py_ssize_t depth) {
    return depth < c->max_depth && depth <= NATIVE_MAX_DEPTH && !stack_low();
}

/* A JSON value held by a Value message at `depth` (checked by the caller). */
static int jv_value(JCtx *c, Py_ssize_t depth, PyObject **out) {
    if (c->p >= c->end) return -1;
    const char *s;
    Py_ssize_t n;
    int ascii, raw;
    Num num;
    double d;
    switch (*c->p) {
    case '"':
        if (jr_string(c, &s, &n, &ascii, &raw) < 0) return -1;
        *out = make_str(s, n, ascii);
        return *out == NULL ? -1 : 0;
    case '{':
        return jv_struct(c, depth + 1, out);
    case '[':
        return jv_list(c, depth + 1, out);
    case 't':
        if (!lit(c, "true", 4)) return -1;
        *out = Py_NewRef(Py_True);
        return 0;
    case 'f':
        if (!lit(c, "false", 5)) return -1;
        *out = Py_NewRef(Py_False);
        return 0;
    case 'n':
        if (!lit(c, "null", 4)) return -1;
        *out = Py_NewRef(Py_None);
        return 0;
    default:
        if (jr_number(c, &num) < 0 || text_to_double(num.s, num.n, &d) < 0 || !isfinite(d)) {
            return -1;
        }
        if (num.is_int && d == 0.0) d = 0.0;  /* float(int("-0")) is 0.0 */
        *out = PyFloat_FromDouble(d);
        return *out == NULL ? -1 : 0;
    }
}

/* A Struct at `depth`, c->p at its '{': a dict; each value a Value two levels down. */
static int jv_struct(JCtx *c, Py_ssize_t depth, PyObject **out) {
    if (c->p >= c->end || *c->p != '{' || !jv_depth_ok(c, depth) || ++c->nest > JR_MAX_NEST) {
        return -1;
    }
    PyObject *dict = PyDict_New();
    if (dict == NULL) return -1;
    c->p++;
    ws(c);
    if (!json_eat(c, '}')) {
        if (!jv_depth_ok(c, depth + 2)) goto fail;
        for (;;) {
            const char *s;
            Py_ssize_t n;
            int ascii, raw;
            if (c->p >= c->end || *c->p != '"' || jr_string(c, &s, &n, &ascii, &raw) < 0) {
                goto fail;
            }
            PyObject *k = make_str(s, n, ascii), *x;
            if (k == NULL) goto fail;
            if (json_colon(c) < 0 || jv_value(c, depth + 2, &x) < 0) {
                Py_DECREF(k);
                goto fail;
            }
            Py_ssize_t before = PyDict_GET_SIZE(dict);
            int r = PyDict_SetItem(dict, k, x);
            Py_DECREF(k);
            Py_DECREF(x);
            if (r < 0 || PyDict_GET_SIZE(dict) == before) goto fail;  /* a key twice */
            int more = json_next(c, '}');
            if (more > 0) continue;
            if (more < 0) goto fail;
            break;
        }
    }
    c->nest--;
    *out = dict;
    return 0;
fail:
    Py_DECREF(dict);
    return -1;
}

/* A ListValue at `depth`, c->p at its '[': a list; each item a Value one level down. */
static int jv_list(JCtx *c, Py_ssize_t depth, PyObject **out) {
    if (c->p >= c->end || *c->p != '[' || !jv_depth_ok(c, depth) || ++c->nest > JR_MAX_NEST) {
        return -1;
    }
    PyObject *list = PyList_New(0);
    if (list == NULL) return -1;
    c->p++;
    ws(c);
    if (!json_eat(c, ']')) {
        if (!jv_depth_ok(c, depth + 1)) goto fail;
        for (;;) {
            PyObject *x;
            if (jv_value(c, depth + 1, &x) < 0) goto fail;
            int r = PyList_Append(list, x);
            Py_DECREF(x);
            if (r < 0) goto fail;
            int more = json_next(c, ']');
            if (more > 0) continue;
            if (more < 0) goto fail;
            break;
        }
    }
    c->nest--;
    *out = list;
    return 0;
fail:
    Py_DECREF(list);
    return -1;
}

/* A pa.JsonValue / pa.Struct / pa.ListValue field's value in a message at `depth`. */
static int jv_field(JCtx *c, const JVal *v, Py_ssize_t depth, PyObject **out) {
    if (v->kind == JK_STRUCT) return jv_struct(c, depth + 1, out);
    if (v->kind == JK_LIST) return jv_list(c, depth + 1, out);
    if (!jv_depth_ok(c, depth + 1)) return -1;
    if (c->p < c->end && *c->p == 'n') {  /* a Value's null: NullValue.NULL_VALUE */
        if (!lit(c, "null", 4)) return -1;
        *out = Py_NewRef(v->null);
        return 0;
    }
    return jv_value(c, depth + 1, out);
}

/* ---- pa.Any ---------------------------------------------------------------------- */

static int jr_value(JCtx *c, const JVal *v, Py_ssize_t depth, PyObject **out);

/* The payload type of an Any's type name (json_any_entry): (claims list, class, kind,
 * reader or plan, serialize); NULL (no error): the reference decides. */
static PyObject *any_payload_type(const JVal *v, PyObject *name) {
    PyObject *entry = json_any_entry(v->sub, name);
    if (entry != NULL && !PyLong_Check(PyTuple_GET_ITEM(entry, 2))) {
        Py_DECREF(entry);
        return NULL;
    }
    return entry;
}

/* pa.Any(type_url, serialize(message)) by Any's plan. */
static PyObject *any_of(JCtx *c, const JVal *v, PyObject *url, PyObject *entry, PyObject *msg) {
    PyObject *data = PyObject_CallOneArg(PyTuple_GET_ITEM(entry, 4), msg);
    if (data == NULL || !PyBytes_CheckExact(data)) {
        Py_XDECREF(data);
        return NULL;
    }
    PyObject *vals[2] = {url, data};
    PyObject *obj = wkt_build(c, PyTuple_GET_ITEM(v->sub, 3), vals, 2);
    Py_DECREF(data);
    return obj;
}

/* A pa.Any at `depth` (its own level), c->p at its '{', as wkt.py's any_from_json reads it:
 * {} is the empty Any; a contract's fields at the Any's level beside "@type" (first, or
 * later: found first, then the object read again), or a well-known payload's "value"
 * alone after "@type". */
static int jr_any(JCtx *c, const JVal *v, Py_ssize_t depth, PyObject **out) {
    if (c->p >= c->end || *c->p != '{' || !jv_depth_ok(c, depth) || ++c->nest > JR_MAX_NEST) {
        return -1;
    }
    const unsigned char *open = c->p;
    c->p++;
    ws(c);
    PyObject *url = NULL, *name = NULL, *entry = NULL, *msg = NULL, *obj = NULL;
    if (json_eat(c, '}')) {
        PyObject *vals[2] = {PyUnicode_New(0, 0), PyBytes_FromStringAndSize(NULL, 0)};
        if (vals[0] != NULL && vals[1] != NULL) {
            obj = wkt_build(c, PyTuple_GET_ITEM(v->sub, 3), vals, 2);
        }
        Py_XDECREF(vals[0]);
        Py_XDECREF(vals[1]);
        goto done;
    }
    const char *s;
    Py_ssize_t n;
    int ascii, raw, type_first = 1;
    for (;;) {  /* to "@type": its first key, or found past the others (skipped) */
        if (c->p >= c->end || *c->p != '"' || jr_string(c, &s, &n, &ascii, &raw) < 0
            || json_colon(c) < 0) {
            goto done;
        }
        if (n == 5 && memcmp(s, "@type", 5) == 0) break;
        type_first = 0;
        if (jskip_value(c) < 0 || json_next(c, '}') != 1) goto done;
    }
    if (c->p >= c->end || *c->p != '"' || jr_string(c, &s, &n, &ascii, &raw) < 0) goto done;
    url = make_str(s, n, ascii);
    if (url == NULL) goto done;
    Py_ssize_t slash = PyUnicode_FindChar(url, '/', 0, PyUnicode_GET_LENGTH(url), -1);
    if (slash == -2) goto done;
    name = PyUnicode_Substring(url, slash + 1, PyUnicode_GET_LENGTH(url));
    if (name == NULL || (entry = any_payload_type(v, name)) == NULL) goto done;
    int kind = (int)PyLong_AsLong(PyTuple_GET_ITEM(entry, 2));
    PyObject *sub = PyTuple_GET_ITEM(entry, 3);
    if (kind == K_MESSAGE) {  /* the contract's fields, at the Any's level */
        if (Py_TYPE(sub) != (PyTypeObject *)v->numbers) goto done;
        if (!type_first) c->p = open;  /* read again from its '{', "@type" skipped */
        c->nest--;
        msg = jr_message_from(c, (JsonReader *)sub, depth, type_first ? 1 : 2);
        c->nest++;
    } else if (type_first) {  /* a well-known payload: "value" and nothing else */
        if (json_next(c, '}') != 1 || c->p >= c->end || *c->p != '"'
            || jr_string(c, &s, &n, &ascii, &raw) < 0 || n != 5 || memcmp(s, "value", 5) != 0
            || json_colon(c) < 0) {
            goto done;
        }
        if (kind == JK_ANY) {
            if (jr_any(c, v, depth + 1, &msg) < 0) msg = NULL;
        } else if (kind >= JK_VALUE && kind <= JK_LIST) {  /* (to_message, NULL_VALUE) */
            PyObject *x = NULL;
            if (PyTuple_Check(sub) && PyTuple_GET_SIZE(sub) == 2) {
                JVal inner = {.kind = kind, .null = PyTuple_GET_ITEM(sub, 1)};
                if (jv_field(c, &inner, depth, &x) == 0) {
                    msg = PyObject_CallOneArg(PyTuple_GET_ITEM(sub, 0), x);
                    Py_DECREF(x);
                }
            }
        } else if (Py_TYPE(sub) == c->st->plan_type) {
            JVal inner = {.kind = kind, .sub = sub};
            PyObject *x = NULL;
            if (kind >= JK_TIMESTAMP_MSG) {  /* a Timestamp, a Duration, a FieldMask */
                if (c->p < c->end && *c->p == '"' && jr_string(c, &s, &n, &ascii, &raw) == 0
                    && ascii) {
                    msg = kind == JK_FIELD_MASK ? field_mask_of(c, &inner, s, n)
                                                : time_message_of(c, &inner, s, n);
                }
            } else if (kind < JK_VALUE && jr_value(c, &inner, depth, &x) == 1) {
                msg = wkt_build(c, sub, &x, 1);  /* a wrapper: its bare value */
                Py_DECREF(x);
            }
        }
        if (msg != NULL && json_next(c, '}') != 0) Py_CLEAR(msg);
    }  /* (a well-known payload with "@type" later: the reference's) */
    if (msg == NULL || (PyObject *)Py_TYPE(msg) != PyTuple_GET_ITEM(entry, 1)) goto done;
    obj = any_of(c, v, url, entry, msg);
done:
    Py_XDECREF(url);
    Py_XDECREF(name);
    Py_XDECREF(entry);
    Py_XDECREF(msg);
    if (obj == NULL) return -1;
    c->nest--;
    *out = obj;
    return 0;
}

/* One non-null JSON value for `v` at c->p, in a message at `depth`: 1 with *out set,
 * 0 for an unknown enum name skipped under ignore_unknown_fields, -1 not taken. */
static int jr_value(JCtx *c, const JVal *v, Py_ssize_t depth, PyObject **out) {
    if (c->p >= c->end) return -1;
    unsigned char ch = *c->p;
    const char *s;
    Py_ssize_t n;
    int ascii, raw;
    Num num;
    PyObject *x = NULL;
    if (v->own_level && depth + 1 >= c->max_depth) {
        return -1;  /* a message of its own: the reference checks depth + 1 */
    }
    if (v->kind == JK_ANY) {
        if (jr_any(c, v, depth + 1, &x) < 0) return -1;
        *out = x;
        return 1;
    }
    if (v->kind >= JK_TIMESTAMP_MSG) {
        if (ch != '"' || jr_string(c, &s, &n, &ascii, &raw) < 0 || !ascii) return -1;
        x = v->kind == JK_FIELD_MASK ? field_mask_of(c, v, s, n) : time_message_of(c, v, s, n);
        if (x == NULL) return -1;
        *out = x;
        return 1;
    }
    if (v->kind >= JK_VALUE) {
        if (jv_field(c, v, depth, &x) < 0) return -1;
        *out = x;
        return 1;
    }
    switch (v->kind) {
    case K_MESSAGE:
        if (ch != '{') return -1;
        x = jr_message(c, (JsonReader *)v->sub, depth + 1);
        break;
    case K_STRING:
        if (ch != '"' || jr_string(c, &s, &n, &ascii, &raw) < 0) return -1;
        x = make_str(s, n, ascii);
        break;
    case K_BOOL:
        if (lit(c, "true", 4)) {
            x = Py_True;
        } else if (lit(c, "false", 5)) {
            x = Py_False;
        } else {
            return -1;
        }
        Py_INCREF(x);
        break;
    case K_BYTES:
        if (ch != '"' || jr_string(c, &s, &n, &ascii, &raw) < 0 || !ascii) return -1;
        x = base64_bytes(s, n);
        break;
    case K_FLOAT: case K_DOUBLE: {
        double d;
        if (ch == '"') {
            if (jr_string(c, &s, &n, &ascii, &raw) < 0) return -1;
            if (n == 3 && memcmp(s, "NaN", 3) == 0) {
                /* C99's NAN, positive as the Python reader's math.nan: CPython
                 * 3.10's Py_NAN (HUGE_VAL * 0.) is negative on x86, and gcc folds
                 * copysign/fabs of it to negative too */
                x = PyFloat_FromDouble((double)NAN);
                break;
            }
            if (n == 8 && memcmp(s, "Infinity", 8) == 0) {
                x = PyFloat_FromDouble(Py_HUGE_VAL);
                break;
            }
            if (n == 9 && memcmp(s, "-Infinity", 9) == 0) {
                x = PyFloat_FromDouble(-Py_HUGE_VAL);
                break;
            }
            if (!is_number_text(s, n) || text_to_double(s, n, &d) < 0) return -1;
        } else {
            if (jr_number(c, &num) < 0 || text_to_double(num.s, num.n, &d) < 0) return -1;
            if (num.is_int && d == 0.0) d = 0.0;  /* float(int("-0")) is 0.0 */
        }
        if (!isfinite(d)) return -1;
        x = float_of(v->kind, d);
        break;
    }
    case K_ENUM: {
        int neg;
        uint64_t mag;
        if (ch == '"') {
            if (jr_string(c, &s, &n, &ascii, &raw) < 0) return -1;
            PyObject *names = v->names;
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
                PyObject *pair = PyTuple_GET_ITEM(names, i);
                PyObject *name = PyTuple_GET_ITEM(pair, 0);
                if (PyBytes_GET_SIZE(name) == n
                    && memcmp(PyBytes_AS_STRING(name), s, (size_t)n) == 0) {
                    x = PyTuple_GET_ITEM(pair, 1);
                    Py_INCREF(x);
                    *out = x;
                    return 1;
                }
            }
            if (parse_int_text(s, n, &neg, &mag) < 0) {
                /* an unknown name: skipped if it is an (ASCII) identifier */
                if (!c->ignore_unknown || n == 0 || is_digit((unsigned char)s[0])) return -1;
                for (Py_ssize_t i = 0; i < n; i++) {
                    unsigned char k = (unsigned char)s[i];
                    if (!(is_digit(k) || k == '_' || (k >= 'a' && k <= 'z')
                          || (k >= 'A' && k <= 'Z'))) {
                        return -1;
                    }
                }
                return 0;
            }
        } else {
            if (jr_number(c, &num) < 0 || !num.is_int
                || parse_int_text(num.s, num.n, &neg, &mag) < 0) {
                return -1;
            }
        }
        PyObject *number = int_of(K_ENUM, neg, mag);
        if (number == NULL) return -1;
        PyObject *member = PyDict_GetItemWithError(v->numbers, number);
        if (member != NULL) {
            Py_INCREF(member);
            Py_DECREF(number);
            x = member;
        } else if (PyErr_Occurred() || v->closed) {
            Py_DECREF(number);
            return -1;
        } else {
            x = number;
        }
        break;
    }
    case K_TIMESTAMP: case K_DURATION:
        if (ch != '"') return -1;
        if (jr_string(c, &s, &n, &ascii, &raw) < 0 || !ascii) return -1;
        x = v->kind == K_TIMESTAMP ? timestamp_of(c, s, n) : duration_of(c, s, n);
        break;
    default: {  /* the integer kinds */
        int neg;
        uint64_t mag;
        double d;
        if (ch == '"') {
            if (jr_string(c, &s, &n, &ascii, &raw) < 0) return -1;
            if (parse_int_text(s, n, &neg, &mag) == 0) {
                x = int_of(v->kind, neg, mag);
            } else if (is_number_text(s, n) && text_to_double(s, n, &d) == 0) {
                x = int_of_double(v->kind, d);
            } else {
                return -1;
            }
        } else {
            if (jr_number(c, &num) < 0) return -1;
            if (num.is_int) {
                if (parse_int_text(num.s, num.n, &neg, &mag) < 0) return -1;
                x = int_of(v->kind, neg, mag);
            } else {
                if (text_to_double(num.s, num.n, &d) < 0) return -1;
                x = int_of_double(v->kind, d);
            }
        }
        break;
    }
    }
    if (x == NULL) return -1;
    *out = x;
    return 1;
}

/* A map key (always a JSON string's content) of kind `kind`; NULL: not taken. */
static PyObject *map_key(int kind, const char *s, Py_ssize_t n, int ascii) {
    if (kind == K_STRING) {
        return make_str(s, n, ascii);
    }
    if (kind == K_BOOL) {
        if (n == 4 && memcmp(s, "true", 4) == 0) Py_RETURN_TRUE;
        if (n == 5 && memcmp(s, "false", 5) == 0) Py_RETURN_FALSE;
        return NULL;
    }
    int neg;
    uint64_t mag;
    double d;
    if (parse_int_text(s, n, &neg, &mag) == 0) {
        return int_of(kind, neg, mag);
    }
    if (is_number_text(s, n) && text_to_double(s, n, &d) == 0) {
        return int_of_double(kind, d);
    }
    return NULL;
}

static int read_list(JCtx *c, const JField *f, PyObject *list, Py_ssize_t depth) {
    if (c->p >= c->end || *c->p != '[' || ++c->nest > JR_MAX_NEST) return -1;
    c->p++;
    ws(c);
    if (json_eat(c, ']')) {
        c->nest--;
        return 0;
    }
    for (;;) {
        PyObject *x;
        int got = jr_value(c, &f->val, depth, &x);
        if (got < 0) return -1;
        if (got == 1) {
            int r = PyList_Append(list, x);
            Py_DECREF(x);
            if (r < 0) return -1;
        }
        int more = json_next(c, ']');
        if (more > 0) continue;
        if (more < 0) return -1;
        c->nest--;
        return 0;
    }
}

static int read_map(JCtx *c, const JField *f, PyObject *dict, Py_ssize_t depth) {
    if (c->p >= c->end || *c->p != '{' || ++c->nest > JR_MAX_NEST) return -1;
    c->p++;
    ws(c);
    if (json_eat(c, '}')) {
        c->nest--;
        return 0;
    }
    for (;;) {
        const char *s;
        Py_ssize_t n;
        int ascii, raw;
        if (c->p >= c->end || *c->p != '"' || jr_string(c, &s, &n, &ascii, &raw) < 0) {
            return -1;
        }
        PyObject *k = map_key(f->key_kind, s, n, ascii);
        if (k == NULL) return -1;
        ws(c);
        if (c->p >= c->end || *c->p != ':') {
            Py_DECREF(k);
            return -1;
        }
        c->p++;
        ws(c);
        PyObject *x;
        /* null is no map value; the entry is a message: a level of nesting */
        int got = c->p < c->end && *c->p == 'n' && f->val.kind != JK_VALUE
                      ? -1
                      : jr_value(c, &f->val, depth + 1, &x);
        if (got != 1) {  /* a skipped entry too: a duplicate of it would go unseen */
            Py_DECREF(k);
            return -1;
        }
        Py_ssize_t before = PyDict_GET_SIZE(dict);
        int r = PyDict_SetItem(dict, k, x);
        Py_DECREF(k);
        Py_DECREF(x);
        /* a key seen again: a duplicate in the text, or two spellings of one number */
        if (r < 0 || PyDict_GET_SIZE(dict) == before) return -1;
        int more = json_next(c, '}');
        if (more > 0) continue;
        if (more < 0) return -1;
        c->nest--;
        return 0;
    }
}

/* ---- messages ---------------------------------------------------------------- */

static Py_ssize_t find_key(const JsonReader *r, const char *s, Py_ssize_t n, Py_ssize_t *hint) {
    Py_ssize_t nk = r->nkeys;
    for (Py_ssize_t j = 0, i = *hint; j < nk; j++, i++) {
        if (i >= nk) i = 0;
        const JKey *k = &r->keys[i];
        if (k->n == n && (n == 0 || (k->s[0] == s[0] && memcmp(k->s, s, (size_t)n) == 0))) {
            *hint = i + 1;
            return k->field;
        }
    }
    return -1;
}

/* The key at c->p when it is, byte for byte, one of the two the table expects next
 * (the fields in order: after a field's JSON name comes its proto name, then the next
 * field's): its field, the text past it, no scan.  -1 when it is not. */
ENGINE_INLINE Py_ssize_t predicted_key(const JsonReader *r, JCtx *c, Py_ssize_t *hint,
                                       const char **s, Py_ssize_t *n) {
    const unsigned char *p = c->p;
    for (Py_ssize_t i = *hint; i < *hint + 2 && i < r->nkeys; i++) {
        const JKey *k = &r->keys[i];
        if (k->plain && c->end - p > k->n + 1 && p[0] == '"' && p[k->n + 1] == '"'
            && memcmp(p + 1, k->s, (size_t)k->n) == 0) {
            *s = (const char *)p + 1;
            *n = k->n;
            *hint = i + 1;
            c->p = p + k->n + 2;
            return k->field;
        }
    }
    return -1;
}

/* Complete `vals` with what absent fields become, and build the object with the
 * binary plan's constructor call. */
static PyObject *jr_build(JCtx *c, JsonReader *r, PyObject **vals, Py_ssize_t depth) {
    Plan *plan = (Plan *)r->plan;
    if (!plan->ready || plan->invalid || plan->nfields != r->nfields) return NULL;
    for (Py_ssize_t i = 0; i < r->nfields; i++) {
        const JField *f = &r->fields[i];
        if (vals[i] == NULL) {
            switch (f->fill) {
            case FILL_CONSTANT:
                vals[i] = f->fill_value;
                Py_INCREF(vals[i]);
                break;
            case FILL_FACTORY:
                vals[i] = PyObject_CallNoArgs(f->fill_value);
                break;
            case FILL_EMPTY:
                vals[i] = jr_empty(c, (JsonReader *)f->val.sub, depth + 1);
                break;
            default:
                return NULL;  /* required */
            }
            if (vals[i] == NULL) return NULL;
        }
        if (f->container != NULL) {
            PyObject *conv = PyObject_CallOneArg(f->container, vals[i]);
            if (conv == NULL) return NULL;
            Py_SETREF(vals[i], conv);
        }
    }
    return construct_object(c->st, plan, vals);
}

static int depth_ok(const JsonReader *r, Py_ssize_t depth) {
    return r->ready && depth < r->max_depth && depth <= NATIVE_MAX_DEPTH && !stack_low();
}

/* The value of an absent non-Optional message: the object of `{}`. */
static PyObject *jr_empty(JCtx *c, JsonReader *r, Py_ssize_t depth) {
    if (!depth_ok(r, depth)) return NULL;
    Py_ssize_t n = r->nfields;
    PyObject *small[24] = {NULL};
    PyObject **vals = small;
    if (n > 24) {
        vals = PyMem_Calloc((size_t)n, sizeof(PyObject *));
        if (vals == NULL) return PyErr_NoMemory();
    }
    PyObject *obj = jr_build(c, r, vals, depth);
    for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(vals[i]);
    if (vals != small) PyMem_Free(vals);
    return obj;
}

/* One field's value after its key: into *slot (NULL before).  -1: not taken. */
static int read_field_value(JCtx *c, const JField *f, PyObject **slot, Py_ssize_t depth) {
    PyObject *x;
    int got;
    switch (f->label) {
    case L_REPEATED:
        x = PyList_New(0);
        if (x == NULL) return -1;
        if (read_list(c, f, x, depth) < 0) {
            Py_DECREF(x);
            return -1;
        }
        *slot = x;
        return 0;
    case L_MAP:
        x = PyDict_New();
        if (x == NULL) return -1;
        if (read_map(c, f, x, depth) < 0) {
            Py_DECREF(x);
            return -1;
        }
        *slot = x;
        return 0;
    default:
        got = jr_value(c, &f->val, depth, &x);
        if (got < 0) return -1;
        if (got == 1) *slot = x;  /* 0: an unknown enum name, the field stays absent */
        return 0;
    }
}

static PyObject *jr_message(JCtx *c, JsonReader *r, Py_ssize_t depth) {
    return jr_message_from(c, r, depth, 0);
}

/* The object of `r` at c->p's '{'; with `after_type`, an Any's fields: 1, c->p just past
 * its leading "@type" member; 2, at its '{', "@type" among them (skipped).  A second
 * "@type" is a key given twice: the reference's. */
static PyObject *jr_message_from(JCtx *c, JsonReader *r, Py_ssize_t depth, int after_type) {
    if (!depth_ok(r, depth) || ++c->nest > JR_MAX_NEST) return NULL;
    Py_ssize_t n = r->nfields;
    PyObject *small[24] = {NULL};
    unsigned char hit_small[24] = {0};
    PyObject **vals = small;
    unsigned char *hit = hit_small;
    uint64_t oneofs = 0;
    Py_ssize_t hint = 0;
    const char *unknown_s[8];
    Py_ssize_t unknown_n[8];
    int nunknown = 0;
    PyObject *obj = NULL;
    int type_seen = after_type == 1;  /* an Any's "@type": read by jr_any, once */
    if (n > 24) {
        vals = PyMem_Calloc((size_t)n, sizeof(PyObject *));
        hit = PyMem_Calloc((size_t)n, 1);
        if (vals == NULL || hit == NULL) {
            PyErr_NoMemory();
            goto done;
        }
    }
    int empty;
    if (after_type == 1) {
        int more = json_next(c, '}');
        if (more < 0) goto done;
        empty = !more;
    } else {
        c->p++;  /* '{' */
        ws(c);
        empty = json_eat(c, '}');
    }
    if (!empty) {
        for (;;) {
            const char *s;
            Py_ssize_t kn;
            int ascii, raw;
            Py_ssize_t idx = predicted_key(r, c, &hint, &s, &kn);
            if (idx == -1) {
                if (c->p >= c->end || *c->p != '"' || jr_string(c, &s, &kn, &ascii, &raw) < 0) {
                    goto done;
                }
                idx = find_key(r, s, kn, &hint);
            } else {
                raw = 1;
            }
            if (after_type && kn == 5 && memcmp(s, "@type", 5) == 0) {
                if (type_seen || json_colon(c) < 0 || jskip_value(c) < 0) goto done;
                type_seen = 1;
                int more = json_next(c, '}');
                if (more > 0) continue;
                if (more < 0) goto done;
                break;
            }
            if (idx < 0) {
                /* an extension "[...]", or an unknown field: the reference decides,
                 * unless it ignores unknown fields (then a key given twice is still
                 * an error: compared while the key is in the text, without escapes) */
                if (!c->ignore_unknown || (kn > 0 && s[0] == '[') || !raw || nunknown == 8) {
                    goto done;
                }
                for (int i = 0; i < nunknown; i++) {
                    if (unknown_n[i] == kn && memcmp(unknown_s[i], s, (size_t)kn) == 0) {
                        goto done;
                    }
                }
                unknown_s[nunknown] = s;
                unknown_n[nunknown] = kn;
                nunknown++;
            }
            if (json_colon(c) < 0) goto done;
            if (idx < 0) {
                if (jskip_value(c) < 0) goto done;
            } else {
                const JField *f = &r->fields[idx];
                /* a field met twice (a duplicate key, or both of its names): the
                 * reference refuses most such texts; it decides all of them */
                if (hit[idx]) goto done;
                hit[idx] = 1;
                if (c->p < c->end && *c->p == 'n'
                    && (f->val.kind != JK_VALUE || f->label == L_REPEATED || f->label == L_MAP)) {
                    if (!lit(c, "null", 4)) goto done;
                    if (f->oneof) {  /* null: the member is None (and no choice made) */
                        Py_INCREF(Py_None);
                        vals[idx] = Py_None;
                    }
                } else {
                    if (f->oneof) {
                        uint64_t bit = (uint64_t)1 << (f->oneof - 1);
                        if (oneofs & bit) goto done;  /* a second member */
                        oneofs |= bit;
                    }
                    if (read_field_value(c, f, &vals[idx], depth) < 0) goto done;
                }
            }
            int more = json_next(c, '}');
            if (more > 0) continue;
            if (more < 0) goto done;
            break;
        }
    }
    c->nest--;
    obj = jr_build(c, r, vals, depth);
done:
    if (vals != NULL) {
        for (Py_ssize_t i = 0; i < n; i++) Py_XDECREF(vals[i]);
    }
    if (vals != small) PyMem_Free(vals);
    if (hit != hit_small) PyMem_Free(hit);
    return obj;
}

/* ---- UTF-8 of the input --------------------------------------------------------- */

/* Whether [p, end) is UTF-8 as Python's strict decoder takes it (no surrogates, no
 * overlong forms, nothing past U+10FFFF). */
static int utf8_valid(const unsigned char *p, const unsigned char *end) {
    while (p < end) {
        unsigned char b = *p;
        if (b < 0x80) {
            p++;
            continue;
        }
        Py_ssize_t left = end - p;
        if (b >= 0xC2 && b <= 0xDF) {
            if (left < 2 || (p[1] & 0xC0) != 0x80) return 0;
            p += 2;
        } else if (b >= 0xE0 && b <= 0xEF) {
            if (left < 3 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80) return 0;
            if (b == 0xE0 && p[1] < 0xA0) return 0;
            if (b == 0xED && p[1] >= 0xA0) return 0;
            p += 3;
        } else if (b >= 0xF0 && b <= 0xF4) {
            if (left < 4 || (p[1] & 0xC0) != 0x80 || (p[2] & 0xC0) != 0x80
                || (p[3] & 0xC0) != 0x80) {
                return 0;
            }
            if (b == 0xF0 && p[1] < 0x90) return 0;
            if (b == 0xF4 && p[1] >= 0x90) return 0;
            p += 4;
        } else {
            return 0;
        }
    }
    return 1;
}

static int all_ascii(const unsigned char *p, Py_ssize_t n) {
    const unsigned char *e = p + n;
    uint64_t high = 0;
    for (; e - p >= 8; p += 8) {
        uint64_t w;
        memcpy(&w, p, 8);
        high |= w;
    }
    for (; p < e; p++) high |= *p;
    return !(high & 0x8080808080808080ull);
}

/* ---- the type ------------------------------------------------------------------ */

static void jval_clear(JVal *v) {
    Py_CLEAR(v->sub);
    Py_CLEAR(v->names);
    Py_CLEAR(v->numbers);
    Py_CLEAR(v->null);
}

static void reader_release(JsonReader *self) {
    self->ready = 0;
    if (self->fields != NULL) {
        for (Py_ssize_t i = 0; i < self->nfields; i++) {
            jval_clear(&self->fields[i].val);
            Py_CLEAR(self->fields[i].fill_value);
            Py_CLEAR(self->fields[i].container);
        }
        PyMem_Free(self->fields);
        self->fields = NULL;
    }
    if (self->keys != NULL) {
        for (Py_ssize_t i = 0; i < self->nkeys; i++) PyMem_Free(self->keys[i].s);
        PyMem_Free(self->keys);
        self->keys = NULL;
    }
    self->nfields = self->nkeys = 0;
    Py_CLEAR(self->plan);
}

static PyObject *none_null(PyObject *o) {
    if (o == Py_None) return NULL;
    Py_INCREF(o);
    return o;
}

/* (kind, sub, names, numbers, closed, own_level[, null]) */
static int jval_setup(JsonReader *self, JVal *v, PyObject *spec) {
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) < 6 || PyTuple_GET_SIZE(spec) > 7) {
        PyErr_SetString(PyExc_ValueError, "json reader: bad value spec");
        return -1;
    }
    v->kind = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 0));
    v->sub = none_null(PyTuple_GET_ITEM(spec, 1));
    v->names = none_null(PyTuple_GET_ITEM(spec, 2));
    v->numbers = none_null(PyTuple_GET_ITEM(spec, 3));
    v->closed = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 4));
    v->own_level = PyObject_IsTrue(PyTuple_GET_ITEM(spec, 5));
    if (PyTuple_GET_SIZE(spec) == 7) v->null = Py_NewRef(PyTuple_GET_ITEM(spec, 6));
    if (PyErr_Occurred()) return -1;
    if (v->kind == JK_ANY) {
        if (v->sub == NULL || !PyTuple_Check(v->sub) || PyTuple_GET_SIZE(v->sub) != 4
            || !PyDict_Check(PyTuple_GET_ITEM(v->sub, 0))
            || !PyDict_Check(PyTuple_GET_ITEM(v->sub, 2))
            || Py_TYPE(PyTuple_GET_ITEM(v->sub, 3))
                   != engine_state_of_type(Py_TYPE(self))->plan_type) {
            PyErr_SetString(PyExc_ValueError, "json reader: an Any needs its type table");
            return -1;
        }
        Py_XSETREF(v->numbers, Py_NewRef((PyObject *)Py_TYPE(self)));
        return 0;
    }
    if (v->kind >= JK_TIMESTAMP_MSG && v->kind <= JK_FIELD_MASK) {
        EngineState *st = engine_state_of_type(Py_TYPE(self));
        if (v->sub == NULL || Py_TYPE(v->sub) != st->plan_type) {
            PyErr_SetString(PyExc_ValueError, "json reader: a well-known message needs its plan");
            return -1;
        }
        return 0;
    }
    if (v->kind >= JK_VALUE && v->kind <= JK_LIST) {
        if (v->kind == JK_VALUE && v->null == NULL) {
            PyErr_SetString(PyExc_ValueError, "json reader: a Value needs its null");
            return -1;
        }
        return 0;
    }
    PyTypeObject *tp = Py_TYPE(self);
    if (v->kind == K_MESSAGE && (v->sub == NULL || Py_TYPE(v->sub) != tp)) {
        PyErr_SetString(PyExc_ValueError, "json reader: a message value needs its reader");
        return -1;
    }
    if (v->kind == K_ENUM) {
        if (v->names == NULL || !PyTuple_Check(v->names) || v->numbers == NULL
            || !PyDict_Check(v->numbers)) {
            PyErr_SetString(PyExc_ValueError, "json reader: an enum needs its tables");
            return -1;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(v->names); i++) {
            PyObject *pair = PyTuple_GET_ITEM(v->names, i);
            if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2
                || !PyBytes_Check(PyTuple_GET_ITEM(pair, 0))) {
                PyErr_SetString(PyExc_ValueError, "json reader: bad enum name");
                return -1;
            }
        }
    }
    if (v->kind < K_INT32 || v->kind > K_DURATION) {
        PyErr_SetString(PyExc_ValueError, "json reader: a kind it does not read");
        return -1;
    }
    return 0;
}

static PyObject *reader_setup(JsonReader *self, PyObject *args) {
    PyObject *plan, *fields, *keys;
    int max_depth, ignore;
    if (!PyArg_ParseTuple(args, "OO!O!ip", &plan, &PyTuple_Type, &fields, &PyTuple_Type, &keys,
                          &max_depth, &ignore)) {
        return NULL;
    }
    EngineState *st = engine_state_of_type(Py_TYPE(self));
    if (engine_need_datetime(st) < 0) {  /* Timestamps and Durations */
        return NULL;
    }
    if (Py_TYPE(plan) != st->plan_type || !((Plan *)plan)->ready
        || ((Plan *)plan)->nfields != PyTuple_GET_SIZE(fields) || hier_is_multi((Plan *)plan)) {
        PyErr_SetString(PyExc_ValueError, "json reader: needs the contract's flat, ready plan");
        return NULL;
    }
    reader_release(self);
    Py_INCREF(plan);
    self->plan = plan;
    self->max_depth = max_depth;
    self->ignore_unknown = ignore;
    Py_ssize_t n = PyTuple_GET_SIZE(fields);
    self->fields = PyMem_Calloc((size_t)(n ? n : 1), sizeof(JField));
    if (self->fields == NULL) return PyErr_NoMemory();
    self->nfields = n;
    for (Py_ssize_t i = 0; i < n; i++) {
        /* (label, value spec, key kind, fill, fill value, container, oneof) */
        PyObject *spec = PyTuple_GET_ITEM(fields, i);
        JField *f = &self->fields[i];
        if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != 7) {
            PyErr_SetString(PyExc_ValueError, "json reader: bad field spec");
            goto fail;
        }
        f->label = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 0));
        if (jval_setup(self, &f->val, PyTuple_GET_ITEM(spec, 1)) < 0) goto fail;
        f->key_kind = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 2));
        f->fill = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 3));
        f->fill_value = none_null(PyTuple_GET_ITEM(spec, 4));
        f->container = none_null(PyTuple_GET_ITEM(spec, 5));
        f->oneof = (int)PyLong_AsLong(PyTuple_GET_ITEM(spec, 6));
        if (PyErr_Occurred()) goto fail;
        if (f->oneof < 0 || f->oneof > 64 || f->fill < 0 || f->fill > FILL_EMPTY
            || (f->fill == FILL_FACTORY && f->fill_value == NULL)
            || (f->fill == FILL_EMPTY && f->val.kind != K_MESSAGE)) {
            PyErr_SetString(PyExc_ValueError, "json reader: bad field spec");
            goto fail;
        }
        if (f->fill == FILL_CONSTANT && f->fill_value == NULL) {
            Py_INCREF(Py_None);
            f->fill_value = Py_None;
        }
    }
    Py_ssize_t nk = PyTuple_GET_SIZE(keys);
    self->keys = PyMem_Calloc((size_t)(nk ? nk : 1), sizeof(JKey));
    if (self->keys == NULL) {
        PyErr_NoMemory();
        goto fail;
    }
    self->nkeys = nk;
    for (Py_ssize_t i = 0; i < nk; i++) {
        PyObject *pair = PyTuple_GET_ITEM(keys, i);
        if (!PyTuple_Check(pair) || PyTuple_GET_SIZE(pair) != 2
            || !PyBytes_Check(PyTuple_GET_ITEM(pair, 0))) {
            PyErr_SetString(PyExc_ValueError, "json reader: bad key");
            goto fail;
        }
        PyObject *b = PyTuple_GET_ITEM(pair, 0);
        Py_ssize_t idx = PyLong_AsSsize_t(PyTuple_GET_ITEM(pair, 1));
        if (idx < 0 || idx >= n) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "json reader: bad key");
            goto fail;
        }
        Py_ssize_t len = PyBytes_GET_SIZE(b);
        self->keys[i].s = PyMem_Malloc((size_t)(len ? len : 1));
        if (self->keys[i].s == NULL) {
            PyErr_NoMemory();
            goto fail;
        }
        memcpy(self->keys[i].s, PyBytes_AS_STRING(b), (size_t)len);
        self->keys[i].n = len;
        self->keys[i].field = idx;
        self->keys[i].plain = 1;
        for (Py_ssize_t j = 0; j < len; j++) {
            unsigned char ch = (unsigned char)self->keys[i].s[j];
            if (ch == '"' || ch == '\\' || ch < 0x20) self->keys[i].plain = 0;
        }
    }
    self->ready = 1;
    Py_RETURN_NONE;
fail:
    reader_release(self);
    return NULL;
}

/* A top-level JSON array of this contract's objects, each read as a top-level one. */
static PyObject *jr_items(JCtx *c, JsonReader *r, int as_tuple) {
    PyObject *list = PyList_New(0);
    if (list == NULL) return NULL;
    c->p++;  /* '[' */
    ws(c);
    if (!json_eat(c, ']')) {
        for (;;) {
            if (c->p >= c->end || *c->p != '{') goto fail;
            PyObject *x = jr_message(c, r, 0);
            if (x == NULL) goto fail;
            int e = PyList_Append(list, x);
            Py_DECREF(x);
            if (e < 0) goto fail;
            int more = json_next(c, ']');
            if (more > 0) continue;
            if (more < 0) goto fail;
            break;
        }
    }
    if (as_tuple) {
        Py_SETREF(list, PyList_AsTuple(list));
    }
    return list;
fail:
    Py_DECREF(list);
    return NULL;
}

/* The object (items: 0), the list (1) or the tuple (2) of `text`, or None: the
 * reference must read this text. */
static PyObject *reader_read_as(JsonReader *self, PyObject *text, int items) {
    const unsigned char *data;
    Py_ssize_t len;
    if (!self->ready) goto fallback;
    if (PyUnicode_CheckExact(text)) {
        if (PyUnicode_IS_ASCII(text)) {
            data = PyUnicode_1BYTE_DATA(text);
            len = PyUnicode_GET_LENGTH(text);
        } else {
            data = (const unsigned char *)PyUnicode_AsUTF8AndSize(text, &len);
            if (data == NULL) {  /* lone surrogates: not UTF-8 */
                if (!engine_may_fall_back()) return NULL;
                goto fallback;
            }
        }
    } else if (PyBytes_CheckExact(text)) {
        data = (const unsigned char *)PyBytes_AS_STRING(text);
        len = PyBytes_GET_SIZE(text);
        if (!all_ascii(data, len) && !utf8_valid(data, data + len)) goto fallback;
    } else {
        goto fallback;
    }
    EngineState *st = engine_state_of_type(Py_TYPE(self));
    JCtx c = {st, (PyDateTime_CAPI *)st->datetime_api, data, data + len,
              self->ignore_unknown, self->max_depth, 0, NULL, 0};
    Py_INCREF(text);  /* the text outlives every user __init__ this read calls */
    int pause = len > 16384;
    if (pause) engine_gc_pause(st);
    ws(&c);
    PyObject *obj = NULL;
    if (c.p < c.end && *c.p == (items ? '[' : '{')) {
        obj = items ? jr_items(&c, self, items == 2) : jr_message(&c, self, 0);
        if (obj != NULL) {
            ws(&c);
            if (c.p != c.end) Py_CLEAR(obj);
        }
    }
    if (pause) engine_gc_resume(st);
    PyMem_Free(c.scratch);
    Py_DECREF(text);
    if (obj != NULL) return obj;
    if (!engine_may_fall_back()) return NULL;
fallback:
    self->fallbacks++;
    Py_RETURN_NONE;
}

/* read(text) -> the object, or None: the reference must read this text. */
static PyObject *reader_read(JsonReader *self, PyObject *text) {
    return reader_read_as(self, text, 0);
}

/* read_items(text, as_tuple) -> the list (tuple) of objects, or None. */
static PyObject *reader_read_items(JsonReader *self, PyObject *args) {
    PyObject *text;
    int as_tuple;
    if (!PyArg_ParseTuple(args, "Op:read_items", &text, &as_tuple)) return NULL;
    return reader_read_as(self, text, as_tuple ? 2 : 1);
}

static int reader_traverse(JsonReader *self, visitproc visit, void *arg) {
    Py_VISIT(Py_TYPE(self));
    Py_VISIT(self->plan);
    for (Py_ssize_t i = 0; i < self->nfields; i++) {
        JField *f = &self->fields[i];
        Py_VISIT(f->val.sub);
        Py_VISIT(f->val.names);
        Py_VISIT(f->val.numbers);
        Py_VISIT(f->val.null);
        Py_VISIT(f->fill_value);
        Py_VISIT(f->container);
    }
    return 0;
}

static int reader_clear(JsonReader *self) {
    reader_release(self);
    return 0;
}

static void reader_dealloc(JsonReader *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    reader_release(self);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyObject *reader_get_ready(JsonReader *self, void *closure) {
    return PyBool_FromLong(self->ready);
}

static PyMethodDef reader_methods[] = {
    {"setup", (PyCFunction)reader_setup, METH_VARARGS,
     "setup(plan, fields, keys, max_depth, ignore_unknown)"},
    {"read", (PyCFunction)reader_read, METH_O,
     "read(text) -> the object, or None when the Python reference must read the text"},
    {"read_items", (PyCFunction)reader_read_items, METH_VARARGS,
     "read_items(text, as_tuple) -> a top-level JSON array's objects (a list or tuple), "
     "or None"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef reader_getset[] = {
    {"ready", (getter)reader_get_ready, NULL, "True once set up", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef reader_members[] = {
    {"fallbacks", T_PYSSIZET, offsetof(JsonReader, fallbacks), READONLY,
     "how many reads were handed to the Python reference"},
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot reader_slots[] = {
    {Py_tp_doc, "The C reader of one contract's canonical JSON (protoattr._json.native_read)."},
    {Py_tp_dealloc, reader_dealloc},
    {Py_tp_traverse, reader_traverse},
    {Py_tp_clear, reader_clear},
    {Py_tp_methods, reader_methods},
    {Py_tp_getset, reader_getset},
    {Py_tp_members, reader_members},
    {Py_tp_new, PyType_GenericNew},
    {0, NULL},
};

static PyType_Spec reader_spec = {
    .name = "protoattr._native._engine.JsonReader",
    .basicsize = sizeof(JsonReader),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .slots = reader_slots,
};

/* ---- JsonReadEntry: a native model's from_json as a C callable ------------------
 *
 * TypeModel.from_json, its module's from_json and the reader look-up cost about as
 * much as the C reader's whole read of a small message.  A JsonReadEntry shadows the
 * method on the model (an instance attribute, as entry.c's Entry does for
 * deserialize): from_json(cls, text[, ignore_unknown_fields=bool]) with a reader
 * for cls in the tables it was bound to, while the model's _json_plans is still the
 * object they belong to, runs the reader straight from the call; every other call,
 * and every text the reader hands back, goes to the Python method, unchanged. */

typedef struct {
    JSON_ENTRY_FIELDS          /* tables: (the dict, the same with ignore_unknown_fields) */
    PyObject *str_ignore;
    PyTypeObject *reader_type;
} JsonReadEntry;

static PyObject *rentry_slow(JsonReadEntry *self, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames) {
    if (self->slow == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "from_json: the model is being torn down");
        return NULL;
    }
    return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
}

static PyObject *rentry_call(JsonReadEntry *self, PyObject *const *args, size_t nargsf,
                             PyObject *kwnames) {
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 2 || self->plans == NULL || self->model_dict == NULL) {
        return rentry_slow(self, args, nargsf, kwnames);
    }
    int ignore = 0;
    if (kwnames != NULL && PyTuple_GET_SIZE(kwnames) > 0) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, 0);
        PyObject *v = args[nargs];
        if (PyTuple_GET_SIZE(kwnames) != 1 || (v != Py_True && v != Py_False)
            || (name != self->str_ignore
                && !(PyUnicode_Check(name) && PyUnicode_Compare(name, self->str_ignore) == 0))) {
            return rentry_slow(self, args, nargsf, kwnames);
        }
        ignore = v == Py_True;
    }
    PyObject *plans = PyDict_GetItemWithError(self->model_dict, self->str_plans);
    if (plans != self->plans) {
        if (PyErr_Occurred()) return NULL;
        return rentry_slow(self, args, nargsf, kwnames);
    }
    PyObject *reader = PyDict_GetItemWithError(PyTuple_GET_ITEM(self->tables, ignore), args[0]);
    if (reader == NULL || Py_TYPE(reader) != self->reader_type) {  /* None: not taken */
        if (PyErr_Occurred()) {
            if (!PyErr_ExceptionMatches(PyExc_TypeError)) return NULL;
            PyErr_Clear();  /* an unhashable cls: the method says what it is */
        }
        return rentry_slow(self, args, nargsf, kwnames);
    }
    Py_INCREF(reader);
    PyObject *obj = reader_read((JsonReader *)reader, args[1]);
    Py_DECREF(reader);
    if (obj != Py_None) {
        return obj;  /* the object, or NULL with an exception that must propagate */
    }
    Py_DECREF(obj);
    return rentry_slow(self, args, nargsf, kwnames);
}

static PyObject *rentry_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    JsonReadEntry *self = (JsonReadEntry *)json_entry_new(
        type, args, kwds, "JsonReadEntry", "O!O:JsonReadEntry", (vectorcallfunc)rentry_call);
    if (self == NULL) return NULL;
    self->str_ignore = PyUnicode_InternFromString("ignore_unknown_fields");
    if (self->str_ignore == NULL) {
        Py_DECREF(self);
        return NULL;
    }
    return (PyObject *)self;
}

static PyObject *rentry_bind(JsonReadEntry *self, PyObject *args) {
    PyObject *plans, *tables, *reader_type;
    if (!PyArg_ParseTuple(args, "OO!O!:bind", &plans, &PyTuple_Type, &tables, &PyType_Type,
                          &reader_type)) {
        return NULL;
    }
    if (PyTuple_GET_SIZE(tables) != 2 || !PyDict_CheckExact(PyTuple_GET_ITEM(tables, 0))
        || !PyDict_CheckExact(PyTuple_GET_ITEM(tables, 1))) {
        PyErr_SetString(PyExc_ValueError, "JsonReadEntry.bind: two dicts");
        return NULL;
    }
    if (((PyTypeObject *)reader_type)->tp_dealloc != (destructor)reader_dealloc) {
        PyErr_SetString(PyExc_TypeError, "JsonReadEntry.bind: the JsonReader type");
        return NULL;
    }
    Py_XSETREF(self->plans, Py_NewRef(plans));
    Py_XSETREF(self->tables, Py_NewRef(tables));
    Py_XSETREF(self->reader_type, (PyTypeObject *)Py_NewRef(reader_type));
    Py_RETURN_NONE;
}

static PyObject *rentry_plans(JsonReadEntry *self, void *closure) {
    if (self->plans == NULL) Py_RETURN_NONE;
    return Py_NewRef(self->plans);
}

static int rentry_traverse(JsonReadEntry *self, visitproc visit, void *arg) {
    Py_VISIT(self->reader_type);
    return json_entry_traverse((JsonEntryHead *)self, visit, arg);
}

static int rentry_clear(JsonReadEntry *self) {
    Py_CLEAR(self->reader_type);
    return json_entry_clear((JsonEntryHead *)self);
}

static void rentry_dealloc(JsonReadEntry *self) {
    PyTypeObject *tp = Py_TYPE(self);
    PyObject_GC_UnTrack(self);
    rentry_clear(self);
    Py_CLEAR(self->str_plans);
    Py_CLEAR(self->str_ignore);
    tp->tp_free((PyObject *)self);
    Py_DECREF(tp);
}

static PyMethodDef rentry_methods[] = {
    {"bind", (PyCFunction)rentry_bind, METH_VARARGS,
     "bind(plans, tables, reader_type): take the readers of tables (two dicts by "
     "ignore_unknown_fields) while the model's _json_plans is plans"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef rentry_getset[] = {
    {"__wrapped__", json_entry_wrapped, NULL, "the Python method", NULL},
    {"plans", (getter)rentry_plans, NULL, "the _json_plans its tables belong to, or None", NULL},
    JSON_ENTRY_GETSET_OF_SLOW
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef rentry_members[] = {
    JSON_ENTRY_MEMBERS
    {NULL, 0, 0, 0, NULL},
};

static PyType_Slot rentry_slots[] = {
    {Py_tp_dealloc, rentry_dealloc},
    {Py_tp_repr, json_entry_repr},
    {Py_tp_traverse, rentry_traverse},
    {Py_tp_clear, rentry_clear},
    {Py_tp_methods, rentry_methods},
    {Py_tp_getset, rentry_getset},
    {Py_tp_members, rentry_members},
    {Py_tp_new, rentry_new},
    {Py_tp_call, PyVectorcall_Call},
    {0, NULL},
};

static PyType_Spec rentry_spec = {
    .name = "protoattr._native._engine.JsonReadEntry",
    .basicsize = sizeof(JsonReadEntry),
    .itemsize = 0,
    .flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .slots = rentry_slots,
};

int engine_add_json_read(PyObject *module) {
    PyObject *tp = PyType_FromModuleAndSpec(module, &reader_spec, NULL);
    if (tp == NULL) return -1;
    int r = PyModule_AddObjectRef(module, "JsonReader", tp);
    Py_DECREF(tp);
    if (r < 0) return -1;
    tp = PyType_FromModuleAndSpec(module, &rentry_spec, NULL);
    if (tp == NULL) return -1;
    r = PyModule_AddObjectRef(module, "JsonReadEntry", tp);
    Py_DECREF(tp);
    return r;
}
