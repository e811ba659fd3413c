//===- ProjectHeaders.cpp - One rewrite of each project header ------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "ProjectHeaders.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <map>
#include <set>
#include <tuple>

using namespace llvm;
using clang::tooling::Replacement;

namespace hpp {
namespace tool {

namespace {
/// An edit as the units compare them.
using EditKey = std::tuple<unsigned, unsigned, std::string>;

EditKey keyOf(const Replacement &R) {
  return {R.getOffset(), R.getLength(), R.getReplacementText().str()};
}

} // namespace

std::string realPath(StringRef Path) {
  SmallString<256> Real;
  if (sys::fs::real_path(Path, Real))
    return Path.str();
  return std::string(Real);
}

namespace {
/// Everything the units say of one header.
struct HeaderUnits {
  /// The units that rewrote it, with their edits and text.
  std::map<size_t, std::set<EditKey>> Edits;
  std::map<size_t, const rewrite::RewrittenHeader *> Rewrites;
  /// The units with device code in it, and where.
  std::map<size_t, std::vector<std::pair<unsigned, unsigned>>> Device;
};

class Merger {
public:
  Merger(std::vector<FileRun> &Runs, raw_ostream &OS) : Runs(Runs), OS(OS) {}

  std::vector<MergedHeader> run() {
    std::map<std::string, HeaderUnits> Headers;
    for (size_t I = 0; I < Runs.size(); ++I) {
      if (!Runs[I].Ok)
        continue;
      for (const rewrite::RewrittenHeader &H : Runs[I].Output.Headers) {
        HeaderUnits &U = Headers[H.File];
        U.Rewrites[I] = &H;
        for (const Replacement &R : H.Edits)
          U.Edits[I].insert(keyOf(R));
      }
      for (const auto &[File, Ranges] : Runs[I].Output.HeaderDeviceCode)
        Headers[File].Device[I] = Ranges;
    }
    std::vector<MergedHeader> Out;
    for (auto &[File, U] : Headers) {
      if (U.Rewrites.empty())
        continue;
      std::optional<MergedHeader> M = merge(File, U);
      if (M)
        Out.push_back(std::move(*M));
    }
    return Out;
  }

private:
  std::optional<MergedHeader> merge(const std::string &File,
                                    const HeaderUnits &U) {
    // The union, each edit with the first unit that made it. Inside a
    // function that is device code for some unit, only the units for which
    // it is device code count: the function is rewritten for the device
    // (`__host__ __device__`), and the host view of another unit (its
    // host-code rewrite of `warpSize`, say) yields to it.
    auto InDevice = [&](size_t Unit, unsigned At) {
      auto It = U.Device.find(Unit);
      return It != U.Device.end() &&
             llvm::any_of(It->second, [&](std::pair<unsigned, unsigned> R) {
               return At >= R.first && At < R.second;
             });
    };
    auto DeviceForAny = [&](unsigned At) {
      return llvm::any_of(U.Device,
                          [&](const auto &P) { return InDevice(P.first, At); });
    };
    std::map<EditKey, size_t> Union;
    for (const auto &[Unit, Edits] : U.Edits)
      for (const EditKey &E : Edits) {
        const unsigned At = std::get<0>(E);
        if (!InDevice(Unit, At) && DeviceForAny(At))
          continue;
        Union.try_emplace(E, Unit);
      }
    bool Ok = true;
    // Edits of different units that overlap (or insert different text at
    // one place) cannot both be made.
    const EditKey *Prev = nullptr;
    size_t PrevUnit = 0;
    for (const auto &[E, Unit] : Union) {
      if (Prev) {
        auto [PO, PL, PT] = *Prev;
        auto [O, L, T] = E;
        if (O < PO + std::max(PL, 1u) && (PL > 0 || L == 0 || O == PO)) {
          conflict(File, O, Unit, PrevUnit, E, *Prev);
          Ok = false;
        }
      }
      Prev = &E;
      PrevUnit = Unit;
    }
    // An edit another unit did not make, in code that is device code for
    // that unit: the units decided differently there.
    for (const auto &[E, Unit] : Union)
      for (const auto &[Other, Ranges] : U.Device) {
        auto It = U.Edits.find(Other);
        if (Other == Unit || (It != U.Edits.end() && It->second.count(E)))
          continue;
        const unsigned At = std::get<0>(E);
        for (auto [Begin, End] : Ranges)
          if (At >= Begin && At < End) {
            conflict(File, At, Unit, Other, E, std::nullopt);
            Ok = false;
            break;
          }
      }
    if (!Ok)
      return std::nullopt;
    MergedHeader M;
    M.File = File;
    std::set<std::tuple<unsigned, unsigned, std::string, std::string>> Seen;
    for (const auto &[Unit, H] : U.Rewrites) {
      M.Units.push_back(Unit);
      for (const rewrite::EditRecord &E : Runs[Unit].Output.Edits)
        if (realPath(E.File) == File &&
            Union.count(EditKey{E.Offset, E.Length, E.Text}) &&
            Seen.insert({E.Offset, E.Length, E.Text, E.Rule}).second)
          M.Edits.push_back(E);
    }
    llvm::sort(M.Edits,
               [](const rewrite::EditRecord &A, const rewrite::EditRecord &B) {
                 return std::tie(A.Offset, A.Length, A.Text, A.Rule) <
                        std::tie(B.Offset, B.Length, B.Text, B.Rule);
               });
    const rewrite::RewrittenHeader &First = *U.Rewrites.begin()->second;
    bool Same = llvm::all_of(U.Rewrites, [&](const auto &P) {
      return P.second->Text == First.Text;
    });
    if (Same) {
      M.Text = First.Text;
      M.Fixes = First.Fixes;
      return M;
    }
    ErrorOr<std::unique_ptr<MemoryBuffer>> Code = MemoryBuffer::getFile(File);
    if (!Code) {
      OS << "hpp-rewrite: error: cannot read '" << File
         << "' again to merge its rewrites: " << Code.getError().message()
         << "\n";
      for (size_t Unit : M.Units)
        fail(Unit, "cannot read '" + File + "' to merge its rewrites", File, 0);
      return std::nullopt;
    }
    clang::tooling::Replacements All;
    std::string Top = First.Top;
    bool TopPlaced = false;
    for (const auto &[E, Unit] : Union) {
      auto [O, L, T] = E;
      if (O == 0 && !TopPlaced) {
        T = Top + T;
        TopPlaced = true;
      }
      consumeError(All.add(Replacement(File, O, L, T)));
    }
    if (!TopPlaced)
      consumeError(All.add(Replacement(File, 0, 0, Top)));
    Expected<std::string> Text =
        clang::tooling::applyAllReplacements((*Code)->getBuffer(), All);
    if (!Text) {
      OS << "hpp-rewrite: error: cannot merge the rewrites of '" << File
         << "': " << toString(Text.takeError()) << "\n";
      for (size_t Unit : M.Units)
        fail(Unit, "cannot merge the rewrites of '" + File + "'", File, 0);
      return std::nullopt;
    }
    M.Text = std::move(*Text);
    M.Fixes.assign(All.begin(), All.end());
    return M;
  }

  /// The rule that made edit \p E of \p File in unit \p Unit.
  std::string ruleOf(size_t Unit, const std::string &File, const EditKey &E) {
    for (const rewrite::EditRecord &R : Runs[Unit].Output.Edits)
      if (R.Offset == std::get<0>(E) && R.Length == std::get<1>(E) &&
          realPath(R.File) == File)
        return R.Rule;
    return "hpp-rewrite";
  }

  static std::string quoted(const EditKey &E) {
    std::string T = std::get<2>(E);
    if (T.size() > 40)
      T = T.substr(0, 37) + "...";
    for (char &C : T)
      if (C == '\n' || C == '\r')
        C = ' ';
    return std::get<1>(E) ? "replaces " + std::to_string(std::get<1>(E)) +
                                " bytes with '" + T + "'"
                          : "inserts '" + T + "'";
  }

  void conflict(const std::string &File, unsigned Offset, size_t A, size_t B,
                const EditKey &EA, std::optional<EditKey> EB) {
    // One error a place: the first pair of units that disagree there.
    if (!Reported.insert({File, Offset}).second)
      return;
    auto [Line, Column] = position(File, Offset);
    const std::string Where =
        File + ":" + std::to_string(Line) + ":" + std::to_string(Column);
    const std::string Rule = ruleOf(A, File, EA);
    std::string Message =
        "the translation units disagree on this project header: '" +
        Runs[A].Source + "' " + quoted(EA) + ", but '" + Runs[B].Source + "' " +
        (EB ? quoted(*EB)
            : std::string("makes no such edit here, in code that is device "
                          "code for it")) +
        "; one rewrite of the header cannot be right for both, and nothing "
        "is written";
    OS << Where << ": error: " << Message << " [" << Rule << "]\n";
    for (size_t Unit : {A, B})
      fail(Unit, Message, File, Offset, Rule, Line, Column);
  }

  std::pair<unsigned, unsigned> position(const std::string &File,
                                         unsigned Offset) {
    ErrorOr<std::unique_ptr<MemoryBuffer>> Code = MemoryBuffer::getFile(File);
    if (!Code)
      return {0, 0};
    StringRef Text = (*Code)->getBuffer().take_front(Offset);
    size_t LastNewline = Text.rfind('\n');
    unsigned Column = LastNewline == StringRef::npos
                          ? Offset + 1
                          : unsigned(Offset - LastNewline);
    return {unsigned(Text.count('\n')) + 1, Column};
  }

  void fail(size_t Unit, const std::string &Message, const std::string &File,
            unsigned Offset, const std::string &Rule = "hpp-rewrite",
            unsigned Line = 0, unsigned Column = 0) {
    FileRun &R = Runs[Unit];
    R.Ok = false;
    rewrite::DiagnosticRecord D;
    D.Severity = "error";
    D.Rule = Rule;
    D.Message = Message;
    D.File = File;
    D.Offset = Offset;
    D.Line = Line;
    D.Column = Column;
    R.Log.Diagnostics.push_back(std::move(D));
    ++R.Log.Errors;
  }

  std::vector<FileRun> &Runs;
  raw_ostream &OS;
  std::set<std::pair<std::string, unsigned>> Reported;
};
} // namespace

bool isUnder(StringRef Path, StringRef Dir) {
  if (Dir.empty() || !Path.starts_with(Dir))
    return false;
  StringRef Rest = Path.drop_front(Dir.size());
  return Rest.empty() || sys::path::is_separator(Rest.front()) ||
         sys::path::is_separator(Dir.back());
}

bool headerOutputs(std::vector<MergedHeader> &Headers, ArrayRef<FileRun> Runs,
                   ArrayRef<std::string> Sources,
                   const rewrite::HeaderPaths &Paths, StringRef Root,
                   StringRef OutputDir, bool Backup,
                   std::vector<PendingOutput> &Pending,
                   std::set<std::string> &Changed) {
  const std::string RealRoot = realPath(Root);
  std::map<std::string, std::string> Texts; // Real path -> what to write.
  for (const MergedHeader &H : Headers)
    Texts[H.File] = H.Text;
  if (!OutputDir.empty()) {
    std::set<std::string> Skip;
    for (const std::string &S : Sources)
      Skip.insert(realPath(absolutePath(S)));
    std::vector<std::string> Tool;
    for (const std::string &D :
         {Paths.ResourceDir, Paths.DialectInclude, Paths.RuntimeInclude})
      if (!D.empty())
        Tool.push_back(realPath(absolutePath(D)));
    for (const FileRun &R : Runs)
      for (const std::string &Dep : R.Output.Dependencies) {
        std::string Real = realPath(Dep);
        if (Texts.count(Real) || Skip.count(Real) || !isUnder(Real, RealRoot) ||
            llvm::any_of(
                Tool, [&](const std::string &T) { return isUnder(Real, T); }))
          continue;
        ErrorOr<std::unique_ptr<MemoryBuffer>> Code =
            MemoryBuffer::getFile(Real);
        if (!Code) {
          errs() << "hpp-rewrite: error: cannot read '" << Real
                 << "': " << Code.getError().message() << "\n";
          return false;
        }
        StringRef Text = (*Code)->getBuffer();
        Texts[Real] = rewrite::outputFirstLine(
                          Real, Text.count("\r\n") * 2 > Text.count('\n')) +
                      Text.str();
      }
  }
  ProjectFiles None({});
  for (const auto &[File, Text] : Texts) {
    SmallString<256> Dest(File);
    if (!OutputDir.empty()) {
      Dest = OutputDir;
      sys::path::append(Dest, StringRef(File).drop_front(RealRoot.size()));
    }
    Expected<std::string> Resolved = resolveDestination(
        Dest, OutputDir.empty() ? ArrayRef<std::string>() : ArrayRef(Sources));
    if (!Resolved) {
      errs() << "hpp-rewrite: error: " << toString(Resolved.takeError())
             << "\n";
      return false;
    }
    if (!OutputDir.empty())
      if (Error E = checkReplaceable(*Resolved, File, None)) {
        errs() << "hpp-rewrite: error: " << toString(std::move(E)) << "\n";
        return false;
      }
    for (MergedHeader &H : Headers)
      if (H.File == File)
        H.Output = *Resolved;
    auto Old = MemoryBuffer::getFile(*Resolved, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
    if (!Old || (*Old)->getBuffer() != Text)
      Changed.insert(File);
    Pending.push_back({*Resolved, Text, Backup});
  }
  return true;
}

std::vector<MergedHeader> mergeHeaders(std::vector<FileRun> &Runs,
                                       raw_ostream &OS) {
  return Merger(Runs, OS).run();
}

} // namespace tool
} // namespace hpp
