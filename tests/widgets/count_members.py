#!/usr/bin/env python3
"""Counts the data members of a C++ class in a header and fails above a limit.

Usage: count_members.py HEADER CLASS MAX [--list]

What counts: every non-static data member declared in the class body itself
(`QSettings& settings_;`, `Views views_;`). Not counted: member functions,
static members and constants, nested types, friends, using/typedef, Qt's
macros and signals. Exit 0 when the count is at most MAX, 1 above it (naming
the members), 2 when the class is not found.
"""
import re
import sys


def strip_comments(text):
    text = re.sub(r'/\*.*?\*/', ' ', text, flags=re.S)
    text = re.sub(r'//[^\n]*', ' ', text)
    return re.sub(r'"(?:\\.|[^"\\])*"', '""', text)


def class_body(text, name):
    m = re.search(r'\b(class|struct)\s+' + re.escape(name) + r'\b[^;{]*\{', text)
    if not m:
        return None
    depth, i = 1, m.end()
    while i < len(text) and depth:
        depth += {'{': 1, '}': -1}.get(text[i], 0)
        i += 1
    return text[m.end():i - 1]


def empty_braces(text):
    """Empties what brace pairs hold. Outside parentheses a pair also ends a statement
    (an inline function body has no `;` after it); inside them (a default argument
    `= {}`) it does not."""
    out, depth, parens = [], 0, 0
    for c in text:
        if c == '{':
            if depth == 0:
                out.append(c)
            depth += 1
        elif c == '}' and depth:
            depth -= 1
            if depth == 0:
                out.append('}' if parens else '};')
        elif depth == 0:
            parens += {'(': 1, ')': -1}.get(c, 0)
            out.append(c)
    return ''.join(out)


def data_members(body):
    body = empty_braces(body)  # function bodies, nested types, brace initialisers
    body = re.sub(r'\b(public|private|protected)\s*(slots|Q_SLOTS)?\s*:', ';', body)
    body = re.sub(r'\b(signals|Q_SIGNALS)\s*:', ';', body)
    body = re.sub(r'\bQ_(OBJECT|GADGET)\b', ';', body)
    members = []
    for stmt in body.split(';'):
        stmt = stmt.strip()
        if not stmt:
            continue
        if re.match(r'(friend|using|typedef|static|enum|template|class|struct|union)\b', stmt):
            continue  # not a data member: a nested type, a forward declaration, ...
        flat = stmt
        while True:  # template arguments: `std::function<void()>` holds no call
            new = re.sub(r'<[^<>]*>', '', flat)
            if new == flat:
                break
            flat = new
        if '(' in flat and ('=' not in flat or flat.index('(') < flat.index('=')):
            continue  # a member function (or a macro)
        for part in flat.split(','):  # `bool a_ = false, b_ = false;` declares two
            decl = part.split('=')[0].split('{')[0].strip()
            name = re.findall(r'(\w+)\s*(\[[^\]]*\])?\s*$', decl)
            if name:
                members.append(name[0][0])
    return members


def main(argv):
    if len(argv) < 4:
        print(__doc__)
        return 2
    header, name, limit = argv[1], argv[2], int(argv[3])
    body = class_body(strip_comments(open(header, encoding='utf-8').read()), name)
    if body is None:
        print(f'{header}: class {name} not found')
        return 2
    members = data_members(body)
    if '--list' in argv or len(members) > limit:
        print(f'{header}: {name} has {len(members)} data members (at most {limit}): {", ".join(members)}')
    if len(members) > limit:
        print(f'{header}: move an area\'s widgets, actions, job and outcome into a controller the window owns')
        return 1
    print(f'{header}: {name} has {len(members)} data members (at most {limit})')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
