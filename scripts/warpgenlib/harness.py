"""The C++ frame every generated program shares (scripts/warpgen.py,
scripts/scope_corpus.py): a registry of its cases, the check that prints
`kernel <k>: ok` or the first mismatch, the line of an error, and a main
that runs every case or those whose ids are its arguments. The output
format is what scripts/difftest.py reads; the names differ by generator
(`wgKernels`, `scCases`) so that a program never mixes them up."""


def _fill(text, prefix, noun):
    """Spells a template's names: @p@ the prefix (wg), @P@ capitalised,
    @N@ the noun (Kernel), @n@ lower case, @V@ its first letter."""
    return (text.replace("@p@", prefix).replace("@P@", prefix.capitalize())
            .replace("@N@", noun).replace("@n@", noun.lower())
            .replace("@V@", noun[0]))


_REGISTRY = r"""typedef void (*@P@@N@Fn)();
struct @P@@N@ {
  int Id;
  @P@@N@Fn Run;
};
static std::vector<@P@@N@> &@p@@N@s() {
  static std::vector<@P@@N@> @N@s;
  return @N@s;
}
static bool @p@Register(int Id, @P@@N@Fn Run) {
  @p@@N@s().push_back({Id, Run});
  return true;
}
"""

_CHECKS = r"""static void @p@Check(int Id, const std::vector<long long> &Got,
                    const std::vector<long long> &Want) {
  for (std::size_t E = 0; E < Want.size() || E < Got.size(); ++E) {
    long long G = E < Got.size() ? Got[E] : -1, W = E < Want.size() ? Want[E] : -1;
    if (E >= Got.size() || E >= Want.size() || G != W) {
      std::printf("kernel %d: MISMATCH at %zu: got %lld expected %lld\n", Id, E, G, W);
      std::fflush(stdout);
      return;
    }
  }
  std::printf("kernel %d: ok\n", Id);
  std::fflush(stdout);
}
static void @p@Error(int Id, const char *What) {
  std::string Line(What);
  for (char &C : Line)
    if (C == '\n' || C == '\r')
      C = ' ';
  std::printf("kernel %d: ERROR %s\n", Id, Line.c_str());
  std::fflush(stdout);
}
"""

_MAIN = r"""
/// Runs every @n@, or those whose ids are the arguments.
int main(int argc, char **argv) {
  for (const @P@@N@ &@V@ : @p@@N@s()) {
    bool Run = argc < 2;
    for (int A = 1; A < argc; ++A)
      Run = Run || std::atoi(argv[A]) == @V@.Id;
    if (Run)
      @V@.Run();
  }
  return 0;
}
"""


def registry(prefix, noun):
    """The case type, the list of cases and the registration function."""
    return _fill(_REGISTRY, prefix, noun)


def checks(prefix):
    """`<prefix>Check(Id, Got, Want)` and `<prefix>Error(Id, What)`."""
    return _fill(_CHECKS, prefix, "Kernel")


def main_function(prefix, noun):
    """The program's main."""
    return _fill(_MAIN, prefix, noun)


def append_kernels(lines, ids, make, describe):
    """Appends kernel after kernel to \\p lines between their marker
    comments: make(kid) gives a kernel's code lines and info, describe(info)
    the first marker's text after its line range (`family ..., style ...`).
    Returns the infos, each with its 1-based line range [start, end]."""
    infos = []
    for kid in ids:
        code, info = make(kid)
        start = len(lines) + 1  # 1-based number of the first marker line
        end = start + 2 + len(code)  # the end marker
        lines.append("// warpgen kernel %d: lines %d-%d, %s" % (kid, start, end, describe(info)))
        lines.append("// idioms: " + "; ".join(info["idioms"]))
        lines += code
        lines.append("// warpgen end kernel %d" % kid)
        assert len(lines) == end
        info["lines"] = [start, end]
        infos.append(info)
    return infos
