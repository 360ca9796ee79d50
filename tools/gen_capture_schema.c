/* gen_capture_schema.c - prints the capture format's JSON Schema from its table (lib/core/capture_format.def). */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/capture_format.h"

/* JSON members written with ' for " (the table's way) as a new object. */
static json_t *members(const char *text)
{
    size_t n = strlen(text);
    char *t = malloc(n + 3);
    if (!t)
        abort();
    t[0] = '{';
    for (size_t i = 0; i < n; i++)
        t[i + 1] = text[i] == '\'' ? '"' : text[i];
    t[n + 1] = '}';
    t[n + 2] = 0;
    json_error_t je;
    json_t *o = json_loads(t, 0, &je);
    if (!o) {
        fprintf(stderr, "gen_capture_schema: bad schema text in the table: %s: %s\n", text, je.text);
        exit(1);
    }
    free(t);
    return o;
}

static json_t *ref(const char *name)
{
    char buf[256];
    snprintf(buf, sizeof buf, "#/$defs/%.200s", name);
    return json_pack("{ss}", "$ref", buf);
}

static const char *group_name(int g)
{
    return gd_cf_groups[g].kind >= 0 ? gd_event_kind_name((gd_event_kind)gd_cf_groups[g].kind)
                                     : gd_cf_groups[g].name;
}

static json_t *group_schema(int g);

static json_t *field_schema(const gd_cf_field *f)
{
    json_t *o;
    if (f->handler == GD_CF_VIEWS)
        o = json_pack("{ss so}", "type", "array", "items", ref(group_name(f->sub)));
    else if (f->sub != GD_CFG_NONE)
        o = group_name(f->sub) ? ref(group_name(f->sub)) : group_schema(f->sub);
    else
        o = members(f->schema);
    if (f->desc)
        json_object_set_new(o, "description", json_string(f->desc));
    return o;
}

static json_t *group_schema(int g)
{
    const gd_cf_group *gr = &gd_cf_groups[g];
    json_t *o = members(gr->schema), *req = json_array(), *props = json_object();
    if (gr->desc)
        json_object_set_new(o, "description", json_string(gr->desc));
    for (unsigned i = gd_cf_group_first[g]; i < gd_cf_group_first[g + 1]; i++) {
        const gd_cf_field *f = &gd_cf_fields[i];
        if (f->flags & GD_CF_OUT)
            continue;
        if (f->flags & GD_CF_REQ)
            json_array_append_new(req, json_string(f->key));
        json_object_set_new(props, f->key, field_schema(f));
    }
    if (json_array_size(req))
        json_object_set(o, "required", req);
    json_object_set(o, "properties", props);
    json_decref(req);
    json_decref(props);
    return o;
}

/* The event def with one if/then branch per kind, and the kinds' tests. */
static void add_event(json_t *defs)
{
    json_t *ev = group_schema(GD_CFG_EVENT), *all = json_array(), *is = json_object();
    for (int g = 0; g < GD_CFG__COUNT; g++) {
        if (gd_cf_groups[g].kind < 0 || (gd_cf_groups[g].flags & GD_CF_INTERNAL))
            continue;
        const char *k = group_name(g);
        char buf[128];
        snprintf(buf, sizeof buf, "is/%.100s", k);
        json_array_append_new(all, json_pack("{so so}", "if", ref(buf), "then", ref(k)));
        json_object_set_new(is, k, json_pack("{s{s{ss}}}", "properties", "type", "const", k));
    }
    json_object_set_new(ev, "allOf", all);
    json_object_set_new(defs, "event", ev);
    json_object_set_new(defs, "is", is);
}

static const char *const containers =
    "'document': {'type': 'object', 'required': ['events'], 'not': {'required': ['type']},"
    " 'properties': {'godeye_trace': {'const': 1, 'description': 'format version'},"
    " 'meta': {'$ref': '#/$defs/meta'}, 'events': {'type': 'array', 'items': {'$ref': '#/$defs/event'}}}},"
    " 'metaLine': {'description': 'first line of a JSON Lines capture: the meta fields plus \\'type\\':\\'meta\\'',"
    " 'allOf': [{'type': 'object', 'required': ['type'], 'properties': {'type': {'const': 'meta'}}},"
    " {'$ref': '#/$defs/meta'}]}";

static json_t *schema(void)
{
    json_t *root = json_pack(
        "{ss ss ss ss ss s[{ss}{ss}{ss}]}", "$schema", "https://json-schema.org/draft/2020-12/schema", "$id",
        "https://godeye.example/schemas/capture.schema.json", "title", "godeye capture, version 1",
        "description",
        "The godeye capture format of spec/trace-format.md. One schema validates either a whole document "
        "({\"godeye_trace\":1,\"meta\":{...},\"events\":[...]}) or one JSON Lines record (the optional "
        "{\"type\":\"meta\",...} first line, or one event). Unknown fields are allowed everywhere (forward "
        "compatibility); events of unknown kinds need only `type` and `ts`.",
        "$comment",
        "generated from lib/core/capture_format.def by tools/gen_capture_schema.c: edit the table, "
        "then cmake --build build --target capture_schema",
        "oneOf", "$ref", "#/$defs/document", "$ref", "#/$defs/metaLine", "$ref", "#/$defs/event");
    json_t *defs = members(containers);
    for (size_t i = 0; i < gd_cf_ndefs; i++) {
        json_t *d = members(gd_cf_defs[i].schema);
        if (gd_cf_defs[i].desc)
            json_object_set_new(d, "description", json_string(gd_cf_defs[i].desc));
        json_object_set_new(defs, gd_cf_defs[i].name, d);
    }
    for (int g = 0; g < GD_CFG__COUNT; g++) {
        if (g == GD_CFG_EVENT)
            add_event(defs);
        else if ((gd_cf_groups[g].kind >= 0 && !(gd_cf_groups[g].flags & GD_CF_INTERNAL)) ||
                 (gd_cf_groups[g].kind < 0 && gd_cf_groups[g].name))
            json_object_set_new(defs, group_name(g), group_schema(g));
    }
    json_object_set_new(root, "$defs", defs);
    return root;
}

int main(int argc, char **argv)
{
    if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: gen_capture_schema [FILE]   (stdout without FILE)\n");
        return 2;
    }
    json_t *s = schema();
    char *text = json_dumps(s, JSON_INDENT(2));
    json_decref(s);
    FILE *out = argc == 2 ? fopen(argv[1], "w") : stdout;
    if (!text || !out) {
        fprintf(stderr, "gen_capture_schema: cannot write %s\n", argc == 2 ? argv[1] : "stdout");
        return 1;
    }
    fprintf(out, "%s\n", text);
    free(text);
    return (argc == 2 ? fclose(out) : fflush(out)) ? 1 : 0;
}
