#!/usr/bin/env python3
"""Mechanical Schema v3 -> v4 rewrites (effect 4.1.0), applied in place to the files given.

Covers only what is safe to do without reading the code: filter/annotations/optionalWith/Literal/Union/
Record/Schema.Schema. Anything else (transform, transformOrFail, ParseResult, message objects with
`override`) is left for a person; tsc points at it.
"""
import re, sys

def match_paren(s, i):
    """Index of the parenthesis closing the one at s[i] (skips strings and template literals, roughly)."""
    depth, j, quote = 0, i, None
    while j < len(s):
        c = s[j]
        if quote:
            if c == "\\": j += 2; continue
            if c == quote: quote = None
        elif c in "\"'`": quote = c
        elif c in "([{": depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0: return j
        j += 1
    raise ValueError("unbalanced")

def split_args(s):
    """Top-level comma split of an argument list."""
    out, depth, quote, cur, j = [], 0, None, "", 0
    while j < len(s):
        c = s[j]
        if quote:
            cur += c
            if c == "\\": cur += s[j + 1]; j += 2; continue
            if c == quote: quote = None
        elif c in "\"'`": quote = c; cur += c
        elif c in "([{": depth += 1; cur += c
        elif c in ")]}": depth -= 1; cur += c
        elif c == "," and depth == 0: out.append(cur); cur = ""
        else: cur += c
        j += 1
    if cur.strip(): out.append(cur)
    return out

def rewrite_calls(src, name, fn):
    out, i = "", 0
    pat = re.compile(re.escape(name) + r"\(")
    while True:
        m = pat.search(src, i)
        if not m: return out + src[i:]
        open_ = m.end() - 1
        close = match_paren(src, open_)
        inner = rewrite_calls(src[open_ + 1:close], name, fn)
        repl = fn(inner)
        out += src[i:m.start()] + (repl if repl is not None else name + "(" + inner + ")")
        i = close + 1

def filter_options(opts):
    opts = re.sub(r"\bmessage:\s*\(\)\s*=>\s*", "message: ", opts)
    opts = re.sub(r"\bjsonSchema:\s*(\{[^{}]*\})", r"toJsonSchema: () => (\1)", opts)
    return opts

def filter_call(inner):
    args = split_args(inner)
    if len(args) == 1: return f"Schema.check(Schema.makeFilter({args[0].strip()}))"
    if len(args) == 2:
        return f"Schema.check(Schema.makeFilter({args[0].strip()}, {filter_options(args[1].strip())}))"
    return None

def optional_with(inner):
    args = split_args(inner)
    if len(args) != 2: return None
    schema, opts = args[0].strip(), args[1].strip()
    if re.fullmatch(r"\{\s*exact:\s*true\s*\}", opts): return f"Schema.optionalKey({schema})"
    m = re.fullmatch(r"\{\s*exact:\s*true,\s*default:\s*\(\)\s*=>\s*(.+?)\s*\}", opts, re.S)
    if m: return f"{schema}.pipe(Schema.withDecodingDefaultTypeKey(Effect.succeed({m.group(1)})))"
    return None

def literal(inner):
    args = split_args(inner)
    if len(args) < 2 and not inner.strip().startswith("..."): return None
    if len(args) == 1: return f"Schema.Literals({inner.strip()[3:]})"
    return "Schema.Literals([" + inner.strip() + "])"

def union(inner):
    if inner.strip().startswith("["): return None
    return "Schema.Union([" + inner.strip() + "])"

def record(inner):
    m = re.fullmatch(r"\s*\{\s*key:\s*(.+?),\s*value:\s*(.+?)\s*\}\s*", inner, re.S)
    return f"Schema.Record({m.group(1)}, {m.group(2)})" if m else None

def annotate(inner):
    return ".annotate(" + re.sub(r"\bmessage:\s*\(\)\s*=>\s*", "message: ", inner) + ")"

for path in sys.argv[1:]:
    src = open(path).read()
    new = rewrite_calls(src, "Schema.filter", filter_call)
    new = rewrite_calls(new, "Schema.optionalWith", optional_with)
    new = rewrite_calls(new, "Schema.Literal", literal)
    new = rewrite_calls(new, "Schema.Union", union)
    new = rewrite_calls(new, "Schema.Record", record)
    new = rewrite_calls(new, ".annotations", annotate)
    new = rewrite_calls(new, "Schema.annotations", lambda inner: "Schema" + annotate(inner))
    new = new.replace("Schema.Schema<", "Schema.Codec<")
    if "Schema.withDecodingDefaultTypeKey(Effect." in new and not re.search(r'import \* as Effect from "effect/Effect"', new):
        new = new.replace('import * as Schema from "effect/Schema"', 'import * as Effect from "effect/Effect"\nimport * as Schema from "effect/Schema"', 1)
    if new != src:
        open(path, "w").write(new)
        print("rewrote", path)
