"""Code pieces shared by the kernel families: launch shapes, the host
prologue and epilogue, lambda blocks and predicates."""

from .kernel import weighted


def group_shape(k):
    """Work-group size L, group count G, elements n (the launch is G * L)."""
    L = weighted(k.rng, ((64, 3), (128, 4), (256, 3)))
    G = k.pick(2, 3, 4, 5)
    pad = k.pick(0, 0, 0, k.rng.randrange(1, L))
    return L, G, G * L - pad


def launch_line(k, L, dist):
    """The parallelFor call opening a lambda (global size Gl, local L)."""
    shape = "Range<1, 1>(Range<1>(Gl), Range<1>(L))"
    if dist:
        return ["parallelFor(%s, shared," % shape,
                "            [=](Index<1, 1> i, BoundDistArray<int> a) __device(hpp) {"]
    return ["parallelFor(%s," % shape,
            "            [=](Index<1, 1> i) __device(hpp) {"]


def tid_line(k):
    return k.pick("int %s = int(i.getLocalX());",
                  "const int %s = static_cast<int>(i.getLocalX());",
                  "int %s = i.getLocalX();") % k.tid


def value_lines(k, op="sum"):
    pad = "0" if op == "sum" else "-1000000"
    if k.shared and k.chance(0.4):
        return ["const int g = int(i.getX());",
                "int v = %s;" % k.shared.load_call(k, "in", "g", "n", pad)]
    return ["const int g = int(i.getX());",
            "int v = g < n ? in[g] : %s;" % pad]


def group_size_expr(k, L):
    return k.pick("int(i.getLocalSizeX())", "L", "int(i.get_local_size(0))",
                  str(L) if L == 256 else "L")


def host_prologue(k, L, G, n, outs, rng_range):
    salt = k.rng.randrange(1, 1 << 30)
    lines = ["const int L = %d, G = %d, Gl = G * L, n = %d;" % (L, G, n),
             "Pointer<int> in = allocate<int>(n);"]
    for name, size in outs:
        lines.append("Pointer<int> %s = allocate<int>(%s);" % (name, size))
    lines.append("for (int e = 0; e < n; ++e)")
    lines.append("  in[e] = wgInput(e, %du, %d);" % (salt, rng_range))
    return lines


def host_epilogue(outs):
    return ["deallocate(in);"] + ["deallocate(%s);" % name for name, _ in outs]


def wrap_try(k, launch, check):
    return (["try {"] + ["  " + s for s in launch] + ["  " + s for s in check] +
            ["} catch (const hpp::RuntimeError &E) {",
             "  wgError(%d, E.what());" % k.kid,
             "} catch (const std::exception &E) {",
             "  wgError(%d, E.what());" % k.kid,
             "}"])


def lambda_block(head, body):
    """A parallelFor call: head lines, the body indented, and the closer."""
    return head + ["              " + s if s else "" for s in body] + ["            });"]


def pred_expr(k, v):
    if k.shared and k.chance(0.5):
        # A predicate helper of the shared headers: host code calls it too.
        return k.shared.pred_call(k, v)
    m = k.pick(3, 5, 7)
    r = k.rng.randrange(0, m)
    return k.pick("%s %% %d == %d" % (v, m, r if r else 0),
                  "(%s & 1) != 0" % v, "%s > %d" % (v, k.rng.randrange(-20, 20)),
                  "(%s * 7 + 3) %% %d < 2" % (v, m))
