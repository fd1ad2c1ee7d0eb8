"""Line numbers of the keys and items of a YAML text, so that errors in YAML input files can name the line."""

from __future__ import annotations

import yaml


def key_lines(text: str) -> dict[tuple, int]:
    """The 1-based line of every mapping key and sequence item of a YAML document, by its path.

    A path is the tuple of keys (strings) and item indexes (ints, from 0) leading to it:
    ``("controls", 2, "answer_AB")`` is the ``answer_AB`` key of the third item of ``controls``, and
    ``("controls", 2)`` is the line where that item starts. Text that does not parse gives ``{}`` (the caller
    reports the YAML error itself).
    """
    lines: dict[tuple, int] = {}

    def walk(node, path: tuple) -> None:
        if isinstance(node, yaml.MappingNode):
            for key, value in node.value:
                sub = path + (str(key.value),)
                lines[sub] = key.start_mark.line + 1
                walk(value, sub)
        elif isinstance(node, yaml.SequenceNode):
            for i, item in enumerate(node.value):
                lines[path + (i,)] = item.start_mark.line + 1
                walk(item, path + (i,))

    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return {}
    walk(root, ())
    return lines
