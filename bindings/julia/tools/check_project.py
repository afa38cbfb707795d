#!/usr/bin/env python3
"""Checks the Julia package's Project.toml against its sources, as Pkg would see them, without Julia.

  python3 check_project.py [PACKAGE_DIR]     (default: the package folder above this tools/ folder)

What Pkg or a Julia user would otherwise only meet at `Pkg.test()` or `using SmallLA`:
  - Project.toml parses; name, uuid and version are well formed; src/NAME.jl declares `module NAME`;
  - every package extension of [extensions] has its file (ext/EXT.jl or ext/EXT/EXT.jl) declaring
    `module EXT`, its triggers are [weakdeps], a weak dependency is not also a strong one, and [compat] says
    julia >= 1.9 (the first Julia with package extensions) and bounds every weak dependency;
  - [targets] lists only [extras] or [deps], and a package named in both [extras] and [weakdeps] has the same
    uuid in both;
  - every package that a `using` or `import` loads is one the file may load: src/ its [deps], an extension its
    [deps], [weakdeps] and the package itself, test/ also the test target's [extras];
  - every `include("...")` names a file that exists.
Exit status: 0 all good, 1 a problem (each printed), 77 no TOML parser (Python < 3.11 without tomli).
"""
import pathlib
import re
import sys

try:
    import tomllib
except ImportError:  # Python < 3.11
    try:
        import tomli as tomllib
    except ImportError:
        print("check_project: no TOML parser (Python >= 3.11, or the tomli package); skipped")
        sys.exit(77)

UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
VERSION = re.compile(r"^\d+\.\d+\.\d+$")
# Modules that need no entry in Project.toml.
BUILTIN = {"Base", "Core", "Main"}


def strip_comments(text):
    """Julia source without comments and string contents (enough for the statements looked at here)."""
    text = re.sub(r"#=.*?=#", " ", text, flags=re.S)
    text = re.sub(r'"""(.*?)"""', lambda m: '""' + "\n" * m.group(1).count("\n"), text, flags=re.S)
    out = []
    for line in text.splitlines():
        in_str, cut = False, len(line)
        for i, c in enumerate(line):
            if c == '"' and (i == 0 or line[i - 1] != "\\"):
                in_str = not in_str
            elif c == "#" and not in_str:
                cut = i
                break
        out.append(line[:cut])
    return "\n".join(out)


def loaded_packages(text):
    """(line, package) for every package that a `using` or `import` statement loads (relative ones skipped)."""
    found = []
    for m in re.finditer(r"^\s*(using|import)\s+([^\n]+)", text, flags=re.M):
        line = text.count("\n", 0, m.start()) + 1
        spec = m.group(2).strip().rstrip(";")
        if ":" in spec:  # using A: x, y / import A: x  -> only A is loaded
            names = [spec.split(":", 1)[0]]
        else:
            names = spec.split(",")
        for name in names:
            name = name.strip().split()[0] if name.strip() else ""
            if not name or name.startswith("."):
                continue
            found.append((line, name.split(".")[0]))
    return found


def includes(text):
    return [(text.count("\n", 0, m.start()) + 1, m.group(1))
            for m in re.finditer(r'\binclude\(\s*"([^"]+)"\s*\)', text)]


def check(pkg):
    errors = []
    project = pkg / "Project.toml"
    try:
        proj = tomllib.loads(project.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        return ["%s: %s" % (project, e)]
    name = proj.get("name", "")
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name):
        errors.append("Project.toml: name %r is not a Julia package name" % name)
    if not UUID.match(proj.get("uuid", "")):
        errors.append("Project.toml: uuid %r is not a UUID" % proj.get("uuid"))
    if not VERSION.match(proj.get("version", "")):
        errors.append("Project.toml: version %r is not MAJOR.MINOR.PATCH" % proj.get("version"))
    deps, weak = proj.get("deps", {}), proj.get("weakdeps", {})
    extras, exts = proj.get("extras", {}), proj.get("extensions", {})
    compat, targets = proj.get("compat", {}), proj.get("targets", {})
    for table, entries in (("deps", deps), ("weakdeps", weak), ("extras", extras)):
        for dep, uuid in entries.items():
            if not UUID.match(str(uuid)):
                errors.append("Project.toml: [%s] %s has no valid uuid" % (table, dep))
    for dep in weak:
        if dep in deps:
            errors.append("Project.toml: %s is both in [deps] and [weakdeps]" % dep)
        if dep in extras and extras[dep] != weak[dep]:
            errors.append("Project.toml: %s has one uuid in [weakdeps] and another in [extras]" % dep)
        if dep not in compat:
            errors.append("Project.toml: [compat] has no bound for the weak dependency %s" % dep)

    main = pkg / "src" / (name + ".jl")
    if not main.is_file():
        errors.append("%s is missing" % main.relative_to(pkg))
    elif not re.search(r"^module\s+%s\b" % re.escape(name), strip_comments(main.read_text()), flags=re.M):
        errors.append("%s does not declare module %s" % (main.relative_to(pkg), name))

    ext_files = {}
    for ext, triggers in exts.items():
        triggers = [triggers] if isinstance(triggers, str) else list(triggers)
        for t in triggers:
            if t not in weak:
                errors.append("Project.toml: extension %s is triggered by %s, which is not in [weakdeps]" % (ext, t))
        cands = [pkg / "ext" / (ext + ".jl"), pkg / "ext" / ext / (ext + ".jl")]
        f = next((c for c in cands if c.is_file()), None)
        if f is None:
            errors.append("extension %s: neither ext/%s.jl nor ext/%s/%s.jl exists" % (ext, ext, ext, ext))
            continue
        ext_files[f] = set(deps) | set(weak) | {name}
        if not re.search(r"^module\s+%s\b" % re.escape(ext), strip_comments(f.read_text()), flags=re.M):
            errors.append("%s does not declare module %s" % (f.relative_to(pkg), ext))
    if exts:
        m = re.match(r"^\s*[~^=]?\s*(\d+)\.(\d+)", str(compat.get("julia", "")))
        if not m or (int(m.group(1)), int(m.group(2))) < (1, 9):
            errors.append("Project.toml: package extensions need [compat] julia >= 1.9, got %r" % compat.get("julia"))
    if (pkg / "ext").is_dir():
        for f in sorted((pkg / "ext").rglob("*.jl")):
            if f.parent == pkg / "ext" and f not in ext_files:
                errors.append("%s is not an extension of [extensions]" % f.relative_to(pkg))

    test_deps = set()
    for target, names in targets.items():
        for dep in names:
            if dep not in extras and dep not in deps:
                errors.append("Project.toml: [targets] %s lists %s, which is neither in [extras] nor [deps]" % (target, dep))
        if target == "test":
            test_deps |= set(names)

    # What each file may load.
    allowed = {}
    for f in sorted((pkg / "src").rglob("*.jl")):
        allowed[f] = set(deps) | {name}
    for f in sorted((pkg / "ext").rglob("*.jl")) if (pkg / "ext").is_dir() else []:
        allowed[f] = set(deps) | set(weak) | {name}
    for f in sorted((pkg / "test").rglob("*.jl")) if (pkg / "test").is_dir() else []:
        allowed[f] = set(deps) | test_deps | {name}
    for f, ok in allowed.items():
        text = strip_comments(f.read_text())
        for line, dep in loaded_packages(text):
            if dep not in ok and dep not in BUILTIN:
                errors.append("%s:%d: loads %s, which Project.toml does not give it" % (f.relative_to(pkg), line, dep))
        for line, inc in includes(text):
            if not (f.parent / inc).is_file():
                errors.append("%s:%d: include(\"%s\"): no such file" % (f.relative_to(pkg), line, inc))
    return errors


def self_test():
    """The checker tells a broken package from a good one (temporary folders)."""
    import tempfile
    good_toml = ('name = "P"\nuuid = "b4842313-67b0-443b-840f-d18b32d5f4f6"\nversion = "0.1.0"\n'
                 '[deps]\nLibdl = "8f399da3-3557-5675-b5ff-fb832c97cbdb"\n'
                 '[weakdeps]\nCUDA = "052768ef-5323-5732-b1bb-66c8b64840ba"\n[extensions]\nPCUDAExt = "CUDA"\n'
                 '[compat]\nCUDA = "5"\njulia = "1.9"\n'
                 '[extras]\nTest = "8dfed614-e22c-5e08-85e1-65c5234f0b40"\n[targets]\ntest = ["Test"]\n')
    files = {"src/P.jl": 'module P\nusing Libdl\ninclude("q.jl")\nend\n', "src/q.jl": "f() = 1\n",
             "ext/PCUDAExt.jl": "module PCUDAExt\nusing P, CUDA\nend\n", "test/runtests.jl": "using P, Test\n"}
    broken = [
        ("julia < 1.9 with extensions", lambda t, fs: (t.replace('julia = "1.9"', 'julia = "1.6"'), fs)),
        ("missing extension file", lambda t, fs: (t, {k: v for k, v in fs.items() if not k.startswith("ext/")})),
        ("test loads a package it lacks", lambda t, fs: (t, dict(fs, **{"test/runtests.jl": "using P, Test, Random\n"}))),
        ("include of a missing file", lambda t, fs: (t, dict(fs, **{"src/P.jl": 'module P\ninclude("r.jl")\nend\n'}))),
        ("trigger not a weak dependency", lambda t, fs: (t.replace('PCUDAExt = "CUDA"', 'PCUDAExt = "AMDGPU"'), fs)),
    ]
    ok = True
    with tempfile.TemporaryDirectory() as d:
        def make(toml, fs, sub):
            root = pathlib.Path(d) / sub
            for rel, text in fs.items():
                (root / rel).parent.mkdir(parents=True, exist_ok=True)
                (root / rel).write_text(text)
            (root / "Project.toml").write_text(toml)
            return root
        if check(make(good_toml, files, "good")):
            print("check_project self-test: a good package was refused:", check(make(good_toml, files, "good2")))
            ok = False
        for k, (what, mutate) in enumerate(broken):
            toml, fs = mutate(good_toml, files)
            if not check(make(toml, fs, "bad%d" % k)):
                print("check_project self-test: not caught:", what)
                ok = False
    print("check_project self-test: %s" % ("passed" if ok else "FAILED"))
    return 0 if ok else 1


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        return self_test()
    pkg = pathlib.Path(args[0]) if args else pathlib.Path(__file__).resolve().parent.parent
    errors = check(pkg)
    for e in errors:
        print("check_project: %s" % e)
    if errors:
        print("check_project: FAILED (%d problems)" % len(errors))
        return 1
    print("check_project: %s/Project.toml agrees with its sources" % pkg.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
