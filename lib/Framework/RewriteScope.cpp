//===- RewriteScope.cpp - The files a rewrite edits -----------------------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "Framework/RewriteScope.h"
#include "hpp-rewrite/LineDirective.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <map>
#include <mutex>

using namespace clang;

namespace hpp {
namespace rewrite {

namespace {
/// The live scopes by source manager: sources rewritten in parallel each
/// have their own.
std::mutex ScopesLock;
std::map<const SourceManager *, const RewriteScope *> &scopes() {
  static std::map<const SourceManager *, const RewriteScope *> Scopes;
  return Scopes;
}
} // namespace

RewriteScope::RewriteScope(const SourceManager &SM, llvm::StringRef Root)
    : SM(SM) {
  if (!Root.empty()) {
    llvm::SmallString<256> Real;
    if (llvm::sys::fs::real_path(Root, Real))
      Real = Root;
    llvm::sys::path::remove_dots(Real, /*remove_dot_dot=*/true);
    this->Root = std::string(Real);
  }
  std::lock_guard<std::mutex> Guard(ScopesLock);
  scopes()[&SM] = this;
}

RewriteScope::~RewriteScope() {
  std::lock_guard<std::mutex> Guard(ScopesLock);
  auto It = scopes().find(&SM);
  if (It != scopes().end() && It->second == this)
    scopes().erase(It);
}

const RewriteScope *RewriteScope::of(const SourceManager &SM) {
  std::lock_guard<std::mutex> Guard(ScopesLock);
  auto It = scopes().find(&SM);
  return It == scopes().end() ? nullptr : It->second;
}

bool RewriteScope::isUnderRoot(llvm::StringRef Path) const {
  if (Root.empty())
    return false;
  llvm::StringRef Rest = Path;
  if (!Rest.consume_front(Root))
    return false;
  return Rest.empty() || llvm::sys::path::is_separator(Rest.front()) ||
         llvm::sys::path::is_separator(Root.back());
}

bool RewriteScope::isProjectHeader(FileID File) const {
  if (File.isInvalid() || File == SM.getMainFileID() || Root.empty())
    return false;
  bool Invalid = false;
  const SrcMgr::SLocEntry &Entry = SM.getSLocEntry(File, &Invalid);
  if (Invalid || !Entry.isFile())
    return false;
  // A system header: found through -isystem (as the dialect's and the
  // runtime's are), or one that says so (`#pragma GCC system_header`, in
  // effect at its end).
  if (SrcMgr::isSystem(Entry.getFile().getFileCharacteristic()) ||
      SM.isInSystemHeader(SM.getLocForEndOfFile(File)))
    return false;
  auto [It, New] = UnderRoot.try_emplace(File, false);
  if (!New)
    return It->second;
  OptionalFileEntryRef FE = SM.getFileEntryRefForID(File);
  if (!FE)
    return false;
  llvm::StringRef Real =
      const_cast<SourceManager &>(SM).getFileManager().getCanonicalName(*FE);
  return It->second = isUnderRoot(Real);
}

bool RewriteScope::isRewritten(FileID File) const {
  return File.isValid() &&
         (File == SM.getMainFileID() || isProjectHeader(File));
}

bool isWrittenInRewrittenFile(const SourceManager &SM, SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  if (const RewriteScope *Scope = RewriteScope::of(SM))
    return Scope->isRewritten(SM.getFileID(Loc));
  return SM.isWrittenInMainFile(Loc);
}

bool isExpansionInRewrittenFile(const SourceManager &SM, SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  return isWrittenInRewrittenFile(SM, SM.getExpansionLoc(Loc));
}

bool isWrittenInProjectHeader(const SourceManager &SM, SourceLocation Loc) {
  if (Loc.isInvalid())
    return false;
  const RewriteScope *Scope = RewriteScope::of(SM);
  return Scope && Scope->isProjectHeader(SM.getFileID(Loc));
}

std::string placeName(const SourceManager &SM, SourceLocation Loc) {
  Loc = SM.getExpansionLoc(Loc);
  std::string Name;
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(SM.getFileID(Loc)))
    Name =
        const_cast<SourceManager &>(SM).getFileManager().getCanonicalName(*FE);
  return Name + ":" + std::to_string(SM.getSpellingLineNumber(Loc)) + ":" +
         std::to_string(SM.getSpellingColumnNumber(Loc));
}

std::string headerLineDirective(const SourceManager &SM, SourceLocation Loc) {
  FileID File = SM.getFileID(Loc);
  std::string Name;
  if (OptionalFileEntryRef FE = SM.getFileEntryRefForID(File))
    Name =
        const_cast<SourceManager &>(SM).getFileManager().getCanonicalName(*FE);
  return lineDirective(SM.getSpellingLineNumber(Loc), Name);
}

} // namespace rewrite
} // namespace hpp
