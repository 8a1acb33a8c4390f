/* The compiled builder: libyaml's events straight to plain data, for the common document.
 *
 * It builds what holodeck_mt/read/builder.py (the reference) builds for mappings, lists and
 * untagged scalars that the platform and editors read alike, each plain one read by the
 * reference's `plain`; for anything else build() returns None and the reference reports. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <yaml.h>

typedef struct {
    PyObject *container;  /* owned */
    int is_map;
    int flow;
    PyObject *key;        /* owned; NULL while the mapping waits for its next key */
    yaml_mark_t key_mark;
    yaml_mark_t start_mark;
    PyObject *keys;       /* borrowed (held by the positions dicts), or NULL */
    PyObject *values;
    PyObject *ends;
} Frame;

typedef struct {
    /* arguments */
    PyObject *plain;
    PyObject *bail;
    Py_ssize_t index_depth;  /* -1: no index */
    Py_ssize_t ends_depth;
    Py_ssize_t ends_left;
    Py_ssize_t max_depth;
    int quoted_spans;
    int watch_question;
    Py_ssize_t cache_size;
    unsigned char typed_ascii[256]; /* typed_first's bytes, as a table (it is all ASCII) */
    /* state */
    Frame *stack;
    Py_ssize_t depth;
    Py_ssize_t capacity;
    PyObject *cache;      /* plain scalar text -> value */
    PyObject *keys;       /* id(mapping) -> {key: (line, column)} */
    PyObject *values;     /* id(collection) -> {key: pos} or [pos] */
    PyObject *value_ends; /* id(collection) -> {key or index: (start, end record)} */
    PyObject *spans;      /* [(start, end, style)] */
    PyObject *root;       /* owned, the finished document */
    yaml_mark_t root_mark;
    /* the event that ended the last finished node (see builder.py's _last) */
    int has_last;
    yaml_mark_t last_start;
    yaml_mark_t last_end;
    char last_style;      /* '|' or '>' for a block scalar, else 0 */
    PyObject *last_record; /* owned, made when first needed */
} State;

/* What a step returns: go on, give up on this document (the reference reads it), or a
 * Python error (an exception is set). */
enum { OK = 0, BAIL = 1, FAIL = -1 };

static PyObject *
position(yaml_mark_t mark)
{
    return Py_BuildValue("(nn)", (Py_ssize_t)mark.line + 1, (Py_ssize_t)mark.column + 1);
}

static void
set_last(State *st, yaml_event_t *event, char style)
{
    st->has_last = 1;
    st->last_start = event->start_mark;
    st->last_end = event->end_mark;
    st->last_style = style;
    Py_CLEAR(st->last_record);
}

/* (start offset, end record) beside a value's position, while notes are left. */
static int
note_end(State *st, Frame *frame, PyObject *slot, yaml_mark_t mark)
{
    if (frame->ends == NULL || st->ends_left <= 0) {
        return OK;
    }
    st->ends_left--;
    if (st->last_record == NULL) {
        /* z#: the block style as a one-character str, or None */
        st->last_record = !st->has_last ? Py_NewRef(Py_None) : Py_BuildValue(
            "(nnnnnnz#)",
            (Py_ssize_t)st->last_start.index, (Py_ssize_t)st->last_start.line,
            (Py_ssize_t)st->last_start.column, (Py_ssize_t)st->last_end.index,
            (Py_ssize_t)st->last_end.line, (Py_ssize_t)st->last_end.column,
            st->last_style ? &st->last_style : NULL, (Py_ssize_t)1);
        if (st->last_record == NULL) {
            return FAIL;
        }
    }
    PyObject *noted = Py_BuildValue("(nO)", (Py_ssize_t)mark.index, st->last_record);
    if (noted == NULL) {
        return FAIL;
    }
    int failed = PyDict_SetItem(frame->ends, slot, noted);
    Py_DECREF(noted);
    return failed ? FAIL : OK;
}

/* Put a finished node (a new reference, always consumed) into the innermost collection. */
static int
attach(State *st, PyObject *value, yaml_mark_t mark)
{
    if (st->depth == 0) {
        st->root = value;
        st->root_mark = mark;
        return OK;
    }
    Frame *frame = &st->stack[st->depth - 1];
    if (!frame->is_map) {
        int failed = PyList_Append(frame->container, value);
        Py_DECREF(value);
        if (failed) {
            return FAIL;
        }
        if (frame->values == NULL) {
            return OK;
        }
        PyObject *pos = position(mark);
        failed = pos == NULL || PyList_Append(frame->values, pos) < 0;
        Py_XDECREF(pos);
        if (failed || frame->ends == NULL || st->ends_left <= 0) {
            return failed ? FAIL : OK;
        }
        PyObject *slot = PyLong_FromSsize_t(PyList_GET_SIZE(frame->values) - 1);
        int step = slot == NULL ? FAIL : note_end(st, frame, slot, mark);
        Py_XDECREF(slot);
        return step;
    }
    if (frame->key == NULL) {
        if (!PyUnicode_CheckExact(value)) {
            Py_DECREF(value);  /* a key that is not a string: the reference reports it */
            return BAIL;
        }
        frame->key = value;
        frame->key_mark = mark;
        return OK;
    }
    PyObject *key = frame->key;
    frame->key = NULL;
    int present = PyDict_Contains(frame->container, key);
    if (present != 0) {  /* a duplicate key (reported by the reference), or an error */
        Py_DECREF(key);
        Py_DECREF(value);
        return present < 0 ? FAIL : BAIL;
    }
    int failed = PyDict_SetItem(frame->container, key, value);
    Py_DECREF(value);
    if (failed) {
        Py_DECREF(key);
        return FAIL;
    }
    int step = OK;
    if (frame->keys != NULL) {
        PyObject *kpos = position(frame->key_mark);
        PyObject *vpos = position(mark);
        if (kpos == NULL || vpos == NULL || PyDict_SetItem(frame->keys, key, kpos) < 0 ||
            PyDict_SetItem(frame->values, key, vpos) < 0) {
            step = FAIL;
        }
        Py_XDECREF(kpos);
        Py_XDECREF(vpos);
        if (step == OK) {
            step = note_end(st, frame, key, mark);
        }
    }
    Py_DECREF(key);
    return step;
}

/* Put `empty` (a new reference, consumed; NULL after a failed allocation) in `table` under
 * the container's id; `*slot` borrows it. */
static int
index_in(PyObject *table, PyObject *container, PyObject **slot, PyObject *empty)
{
    PyObject *id = empty != NULL ? PyLong_FromVoidPtr(container) : NULL;
    int failed = id == NULL || PyDict_SetItem(table, id, empty) < 0;
    Py_XDECREF(id);
    Py_XDECREF(empty);  /* the table holds it */
    *slot = failed ? NULL : empty;
    return failed ? FAIL : OK;
}

static int
open_collection(State *st, yaml_event_t *event, int is_map)
{
    /* Both start events begin with anchor and tag (a common initial sequence of the union). */
    if (event->data.mapping_start.anchor != NULL || event->data.mapping_start.tag != NULL ||
        st->depth >= st->max_depth) {
        return BAIL;
    }
    if (st->depth == st->capacity) {
        Py_ssize_t grown = st->capacity ? st->capacity * 2 : 64;
        Frame *stack = PyMem_Realloc(st->stack, (size_t)grown * sizeof(Frame));
        if (stack == NULL) {
            PyErr_NoMemory();
            return FAIL;
        }
        st->stack = stack;
        st->capacity = grown;
    }
    PyObject *container = is_map ? PyDict_New() : PyList_New(0);
    if (container == NULL) {
        return FAIL;
    }
    Frame *frame = &st->stack[st->depth++];
    frame->container = container;
    frame->is_map = is_map;
    frame->flow = is_map ? event->data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                         : event->data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE;
    frame->key = NULL;
    frame->start_mark = event->start_mark;
    frame->keys = frame->values = frame->ends = NULL;
    Py_ssize_t level = st->depth - 1;
    if (level > st->index_depth) {
        return OK;
    }
    PyObject *values = is_map ? PyDict_New() : PyList_New(0);
    if (index_in(st->values, container, &frame->values, values) < 0 ||
        (level <= st->ends_depth &&
         index_in(st->value_ends, container, &frame->ends, PyDict_New()) < 0) ||
        (is_map && index_in(st->keys, container, &frame->keys, PyDict_New()) < 0)) {
        return FAIL;
    }
    return OK;
}

static int
close_collection(State *st, yaml_event_t *event)
{
    Frame *frame = &st->stack[--st->depth];
    PyObject *container = frame->container;
    Py_CLEAR(frame->key);  /* never set at a mapping's end; cleared for safety */
    if (frame->flow || !st->has_last) {
        set_last(st, event, 0);
    }
    return attach(st, container, frame->start_mark);
}

/* The platform's reading of an untagged plain scalar (a new reference), or NULL with
 * *step set: BAIL for anything the reference builder must read itself. */
static PyObject *
read_plain(State *st, PyObject *text, int *step)
{
    PyObject *value = PyDict_GetItemWithError(st->cache, text);
    if (value != NULL) {
        Py_INCREF(value);
        return value;
    }
    if (PyErr_Occurred()) {
        *step = FAIL;
        return NULL;
    }
    int typed = 1;
    if (PyUnicode_GET_LENGTH(text) > 0) {
        Py_UCS4 first = PyUnicode_READ_CHAR(text, 0);
        typed = first < 128 && st->typed_ascii[first];
    }
    if (typed) {
        value = PyObject_CallOneArg(st->plain, text);
        if (value == NULL) {
            *step = FAIL;
            return NULL;
        }
        if (value == st->bail) {
            Py_DECREF(value);
            *step = BAIL;
            return NULL;
        }
    } else {
        value = text;
        Py_INCREF(value);
    }
    if (PyDict_GET_SIZE(st->cache) < st->cache_size &&
        PyDict_SetItem(st->cache, text, value) < 0) {
        Py_DECREF(value);
        *step = FAIL;
        return NULL;
    }
    return value;
}

static int
scalar(State *st, yaml_event_t *event)
{
    if (event->data.scalar.anchor != NULL || event->data.scalar.tag != NULL) {
        return BAIL;
    }
    PyObject *text = PyUnicode_DecodeUTF8(
        (const char *)event->data.scalar.value, (Py_ssize_t)event->data.scalar.length,
        "strict");
    if (text == NULL) {
        return FAIL;
    }
    char style = 0;
    switch (event->data.scalar.style) {
    case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = '\''; break;
    case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = '"'; break;
    case YAML_LITERAL_SCALAR_STYLE: style = '|'; break;
    case YAML_FOLDED_SCALAR_STYLE: style = '>'; break;
    default: break;
    }
    PyObject *value;
    if (event->data.scalar.plain_implicit) {
        int in_flow = st->depth > 0 && st->stack[st->depth - 1].flow;
        if (in_flow && st->watch_question && PyUnicode_FindChar(
                text, '?', 0, PyUnicode_GET_LENGTH(text), 1) != -1) {
            Py_DECREF(text);  /* the platform's parser may read it otherwise */
            return BAIL;
        }
        int step = OK;
        value = read_plain(st, text, &step);
        Py_DECREF(text);
        if (value == NULL) {
            return step;
        }
    } else {
        value = text;
    }
    if (style == '|' || style == '>' || (st->quoted_spans && style)) {
        PyObject *span = Py_BuildValue(
            "(nnC)", (Py_ssize_t)event->start_mark.index, (Py_ssize_t)event->end_mark.index,
            (int)style);
        int failed = span == NULL || PyList_Append(st->spans, span) < 0;
        Py_XDECREF(span);
        if (failed) {
            Py_DECREF(value);
            return FAIL;
        }
    }
    set_last(st, event, (style == '|' || style == '>') ? style : 0);
    return attach(st, value, event->start_mark);
}

static int
step_event(State *st, yaml_event_t *event)
{
    switch (event->type) {
    case YAML_SCALAR_EVENT:
        return scalar(st, event);
    case YAML_MAPPING_START_EVENT:
        return open_collection(st, event, 1);
    case YAML_SEQUENCE_START_EVENT:
        return open_collection(st, event, 0);
    case YAML_MAPPING_END_EVENT:
    case YAML_SEQUENCE_END_EVENT:
        return close_collection(st, event);
    default:  /* an alias, or anything else inside a node */
        return BAIL;
    }
}

/* Read the stream; OK with st->root set, BAIL, or FAIL. */
static int
run(State *st, yaml_parser_t *parser)
{
    /* The events around the root, in order; any other there (an empty stream, a second
     * document) leaves the text to the reference. */
    static const yaml_event_type_t around[] = {
        YAML_STREAM_START_EVENT, YAML_DOCUMENT_START_EVENT, YAML_DOCUMENT_END_EVENT,
        YAML_STREAM_END_EVENT};
    yaml_event_t event;
    int seen = 0;
    for (;;) {
        if (!yaml_parser_parse(parser, &event)) {
            return BAIL;  /* a syntax error: the reference reports it */
        }
        int step;
        if (seen == 2 && st->root == NULL) {
            step = step_event(st, &event);
        } else {
            step = event.type == around[seen++] ? OK : BAIL;
        }
        yaml_event_delete(&event);
        if (step != OK || seen == 4) {
            return step;
        }
    }
}

static void
clear(State *st)
{
    for (Py_ssize_t i = 0; i < st->depth; i++) {
        Py_XDECREF(st->stack[i].container);
        Py_XDECREF(st->stack[i].key);
    }
    PyMem_Free(st->stack);
    Py_XDECREF(st->cache);
    Py_XDECREF(st->keys);
    Py_XDECREF(st->values);
    Py_XDECREF(st->value_ends);
    Py_XDECREF(st->spans);
    Py_XDECREF(st->root);
    Py_XDECREF(st->last_record);
}

static PyObject *
build(PyObject *module, PyObject *args, PyObject *kwargs)
{
    static char *names[] = {
        "text", "plain", "bail", "typed_first", "index_depth", "ends_depth", "ends_left",
        "max_depth", "quoted_spans", "watch_question", "cache_size", NULL};
    PyObject *text;
    const char *typed_first;
    State st;
    memset(&st, 0, sizeof st);
    if (!PyArg_ParseTupleAndKeywords(
            args, kwargs, "UOOsnnnnppn:build", names, &text, &st.plain, &st.bail,
            &typed_first, &st.index_depth, &st.ends_depth, &st.ends_left, &st.max_depth,
            &st.quoted_spans, &st.watch_question, &st.cache_size)) {
        return NULL;
    }
    for (const unsigned char *c = (const unsigned char *)typed_first; *c; c++) {
        st.typed_ascii[*c] = 1;
    }
    /* An ASCII text is its own UTF-8: libyaml reads the str's buffer, with no copy of a
     * file of several megabytes at the peak of the reading. */
    PyObject *encoded;
    const char *input;
    Py_ssize_t size;
    if (PyUnicode_IS_ASCII(text)) {
        encoded = Py_NewRef(text);
        input = (const char *)PyUnicode_DATA(text);
        size = PyUnicode_GET_LENGTH(text);
    } else {
        encoded = PyUnicode_AsUTF8String(text);
        input = encoded != NULL ? PyBytes_AS_STRING(encoded) : NULL;
        size = encoded != NULL ? PyBytes_GET_SIZE(encoded) : 0;
    }
    if (encoded == NULL) {
        if (!PyErr_ExceptionMatches(PyExc_UnicodeEncodeError)) {
            return NULL;
        }
        PyErr_Clear();  /* a lone surrogate: the reference reports it */
        Py_RETURN_NONE;
    }
    st.cache = PyDict_New();
    st.keys = PyDict_New();
    st.values = PyDict_New();
    st.value_ends = PyDict_New();
    st.spans = PyList_New(0);
    PyObject *result = NULL;
    yaml_parser_t parser;
    int parsing = st.cache && st.keys && st.values && st.value_ends && st.spans;
    if (parsing && !yaml_parser_initialize(&parser)) {
        PyErr_NoMemory();
        parsing = 0;
    }
    if (parsing) {
        yaml_parser_set_input_string(&parser, (const unsigned char *)input, (size_t)size);
        int step = run(&st, &parser);
        yaml_parser_delete(&parser);
        PyObject *root = step == OK ? position(st.root_mark) : NULL;
        if (root != NULL) {
            result = Py_BuildValue(
                "(ONOOOO)", st.root, root, st.keys, st.values, st.value_ends, st.spans);
        } else if (step == BAIL && !PyErr_Occurred()) {
            result = Py_NewRef(Py_None);
        }
    }
    Py_DECREF(encoded);
    clear(&st);
    return result;
}

static PyMethodDef methods[] = {
    {"build", (PyCFunction)(void (*)(void))build, METH_VARARGS | METH_KEYWORDS,
     "build(text, plain, bail, typed_first, index_depth, ends_depth, ends_left, max_depth,\n"
     "      quoted_spans, watch_question, cache_size)\n"
     "--\n\n"
     "The data and positions of a common document, or None for the reference builder."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "holodeck_mt.read._fastbuild",
    "libyaml's events straight to plain data, for the common document.", -1, methods,
};

PyMODINIT_FUNC
PyInit__fastbuild(void)
{
    return PyModule_Create(&module);
}
