// Floor for a command that is an ES module (issue 31): what Node takes to run an empty .mjs file (its ES module loader), beside `node -e 0`.
