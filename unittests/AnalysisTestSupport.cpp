//===- AnalysisTestSupport.cpp - Snippets parsed as the tool does ---------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "AnalysisTestSupport.h"
#include "Framework/DynamicASTVisitor.h"
#include "Framework/LineDirectives.h"
#include "hpp-rewrite/RewriteArguments.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/Basic/FileManager.h"
#include "clang/Frontend/CompilerInstance.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstdlib>

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {

namespace {

/// The headers of this source tree and clang's resource directory (CMake
/// passes them as compile definitions), as the tool finds them in a build.
HeaderPaths sourceTreeHeaders() {
  return {HPP_CLANG_RESOURCE_DIR, HPP_SOURCE_INCLUDE_DIR,
          HPP_SOURCE_RUNTIME_DIR};
}

/// True when \p D or a redeclaration carries `__device(hpp)` (the
/// annotation the dialect header makes of it while the tool parses): what
/// DeviceCode.h's getDeviceAnnotation() finds, without the AST matchers
/// that header brings in.
bool isDeviceAnnotated(const Decl *D) {
  for (const Decl *R : D->redecls())
    for (const auto *A : R->specific_attrs<AnnotateAttr>())
      if (A->getAnnotation() == "hpp.device.hpp")
        return true;
  return false;
}

/// Records the main file's top-level declarations and makes them the
/// traversal scope, as the driver's RewriteConsumer does.
class ScopeConsumer : public ASTConsumer {
public:
  explicit ScopeConsumer(std::vector<Decl *> &Decls) : Decls(Decls) {}

  bool HandleTopLevelDecl(DeclGroupRef Group) override {
    for (Decl *D : Group)
      if (D->getASTContext().getSourceManager().isWrittenInMainFile(
              D->getLocation()))
        Decls.push_back(D);
    return true;
  }
  void HandleTranslationUnit(ASTContext &Ctx) override {
    Ctx.setTraversalScope(Decls);
  }

private:
  std::vector<Decl *> &Decls;
};

/// Starts recording the LineDirectives before the parse, as the driver's
/// RewriteAction does.
class ParseAction : public ASTFrontendAction {
public:
  ParseAction(std::unique_ptr<LineDirectives> &Lines,
              std::vector<Decl *> &Decls)
      : Lines(Lines), Decls(Decls) {}

  std::unique_ptr<ASTConsumer> CreateASTConsumer(CompilerInstance &CI,
                                                 StringRef) override {
    Lines = std::make_unique<LineDirectives>(CI.getSourceManager(),
                                             CI.getLangOpts());
    Lines->record(CI.getPreprocessor());
    return std::make_unique<ScopeConsumer>(Decls);
  }

private:
  std::unique_ptr<LineDirectives> &Lines;
  std::vector<Decl *> &Decls;
};

/// The main file's functions, variables and lambdas, as written; and,
/// when it is given a range, the first expression in pre-order (the
/// outermost) whose file range is exactly [Begin, End).
class Index : public DynamicASTVisitor {
public:
  Index() = default;
  Index(const SourceManager &SM, const LangOptions &LO, unsigned Begin,
        unsigned End)
      : SM(&SM), LO(&LO), Begin(Begin), End(End) {}

  std::vector<const FunctionDecl *> Functions;
  std::vector<const VarDecl *> Variables;
  std::vector<const LambdaExpr *> Lambdas;
  const Expr *Found = nullptr;

  bool VisitFunctionDecl(FunctionDecl *FD) override {
    if (FD->doesThisDeclarationHaveABody())
      Functions.push_back(FD);
    return true;
  }
  bool VisitVarDecl(VarDecl *VD) override {
    Variables.push_back(VD);
    return true;
  }
  bool VisitLambdaExpr(LambdaExpr *LE) override {
    Lambdas.push_back(LE);
    return true;
  }
  bool VisitExpr(Expr *E) override {
    if (!SM || Found)
      return !Found;
    CharSourceRange R = SM->getExpansionRange(E->getSourceRange());
    if (R.isInvalid() || !SM->isWrittenInMainFile(R.getBegin()))
      return true;
    unsigned B = SM->getFileOffset(R.getBegin());
    unsigned X = SM->getFileOffset(R.getEnd());
    if (R.isTokenRange())
      X += Lexer::MeasureTokenLength(R.getEnd(), *SM, *LO);
    if (B == Begin && X == End)
      Found = E;
    return !Found;
  }

  /// Walks \p Decls (until the expression is found).
  void walk(const std::vector<Decl *> &Decls) {
    for (Decl *D : Decls)
      if (!Found)
        TraverseDecl(D);
  }

private:
  const SourceManager *SM = nullptr;
  const LangOptions *LO = nullptr;
  unsigned Begin = 0, End = 0;
};

/// The functions, variables and lambdas of \p Decls.
Index indexOf(const std::vector<Decl *> &Decls) {
  Index I;
  I.walk(Decls);
  return I;
}

/// The command line of a source with no flags of its own, as the tool
/// adjusts it (RewriteArguments.cpp: addRewriteArguments), with \p Extra before
/// the source; \p Port: as port mode parses a CUDA source.
std::vector<std::string> commandFor(StringRef File,
                                    llvm::ArrayRef<std::string> Extra,
                                    bool Port = false) {
  HeaderPaths Paths = sourceTreeHeaders();
  if (Port)
    Paths.CudaDecls = HPP_SOURCE_CUDA_DIR;
  const RewriteArguments Arguments = rewriteArguments(Paths);
  std::vector<std::string> Command{"hpp-rewrite"};
  llvm::append_range(Command, Arguments.Leading);
  if (Port)
    llvm::append_range(Command, std::vector<std::string>{
                                    "-x", "cuda", "-include", "cuda_runtime.h"});
  llvm::append_range(Command, Extra);
  Command.push_back(File.str());
  llvm::append_range(Command, Arguments.Trailing);
  return Command;
}

/// The prelude the precompiled header is made of, and where the parses
/// find both.
constexpr llvm::StringLiteral PreludeFile = "/unit/prelude.h";
constexpr llvm::StringLiteral PreludeText = "#include <hpp/hpp.h>\n";
constexpr llvm::StringLiteral PCHFile = "/unit/prelude.h.pch";

/// An in-memory file system over the real one, with copies of \p Files.
llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> fileSystem(
    llvm::ArrayRef<std::pair<std::string, llvm::MemoryBufferRef>> Files) {
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> Overlay(
      new llvm::vfs::OverlayFileSystem(llvm::vfs::getRealFileSystem()));
  llvm::IntrusiveRefCntPtr<llvm::vfs::InMemoryFileSystem> Memory(
      new llvm::vfs::InMemoryFileSystem);
  Overlay->pushOverlay(Memory);
  for (const auto &[Path, Buffer] : Files)
    Memory->addFile(Path, 0,
                    llvm::MemoryBuffer::getMemBufferCopy(
                        Buffer.getBuffer(), Buffer.getBufferIdentifier()));
  return Overlay;
}

/// Writes the precompiled header of the prelude to OutputFile.
class EmitPCH : public tooling::ToolAction {
public:
  explicit EmitPCH(std::string OutputFile)
      : OutputFile(std::move(OutputFile)) {}

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *Consumer) override {
    Invocation->getFrontendOpts().OutputFile = OutputFile;
    CompilerInstance Compiler(std::move(PCHContainerOps));
    Compiler.setInvocation(std::move(Invocation));
    Compiler.setFileManager(Files);
    Compiler.createDiagnostics(Consumer, /*ShouldOwnClient=*/false);
    if (!Compiler.hasDiagnostics())
      return false;
    Compiler.createSourceManager(*Files);
    GeneratePCHAction Action;
    return Compiler.ExecuteAction(Action);
  }

private:
  std::string OutputFile;
};

/// The dialect header precompiled with the tool's flags, built once per
/// run (in a temporary file, read back and removed); null when
/// HPP_UNITTESTS_NO_PCH is set, or when it cannot be built (a failed test
/// says why). The templates the header itself needs are instantiated in
/// it (-fpch-instantiate-templates): each parse would otherwise repeat
/// them at its end, most of its time. Those are the header's own; the
/// snippet's instantiations are made in its parse, as the tool makes them.
const llvm::MemoryBuffer *dialectPCH() {
  static std::unique_ptr<llvm::MemoryBuffer> PCH = []() {
    std::unique_ptr<llvm::MemoryBuffer> Out;
    if (const char *Off = std::getenv("HPP_UNITTESTS_NO_PCH"))
      if (StringRef(Off) != "" && StringRef(Off) != "0")
        return Out;
    SmallString<128> Temp;
    if (std::error_code EC =
            llvm::sys::fs::createTemporaryFile("hpp-unittests", "pch", Temp)) {
      ADD_FAILURE() << "cannot create the precompiled header: " << EC.message();
      return Out;
    }
    llvm::IntrusiveRefCntPtr<FileManager> Files(new FileManager(
        FileSystemOptions(),
        fileSystem({{PreludeFile.str(),
                     llvm::MemoryBufferRef(PreludeText, PreludeFile)}})));
    std::string Printed;
    llvm::raw_string_ostream OS(Printed);
    TextDiagnosticPrinter Printer(OS, new DiagnosticOptions);
    EmitPCH Emit{std::string(Temp)};
    tooling::ToolInvocation Invocation(
        commandFor(PreludeFile,
                   {"-x", "c++-header", "-fpch-instantiate-templates"}),
        &Emit, Files.get(), std::make_shared<PCHContainerOperations>());
    Invocation.setDiagnosticConsumer(&Printer);
    const bool Built = Invocation.run();
    if (auto Read = llvm::MemoryBuffer::getFile(Temp); Built && Read)
      Out = std::move(*Read);
    else
      ADD_FAILURE() << "cannot build the precompiled header of the dialect:\n"
                    << OS.str();
    llvm::sys::fs::remove(Temp);
    return Out;
  }();
  return PCH.get();
}

} // namespace

/// Runs the compile the driver made of the command line, and keeps the
/// compiler and the action open (not ended) for the test.
class KeepParsed : public tooling::ToolAction {
public:
  explicit KeepParsed(ParsedSource &P) : P(P) {}

  bool runInvocation(std::shared_ptr<CompilerInvocation> Invocation,
                     FileManager *Files,
                     std::shared_ptr<PCHContainerOperations> PCHContainerOps,
                     DiagnosticConsumer *Consumer) override {
    auto Compiler = std::make_unique<CompilerInstance>(PCHContainerOps);
    Compiler->setInvocation(std::move(Invocation));
    Compiler->setFileManager(Files);
    Compiler->createDiagnostics(Consumer, /*ShouldOwnClient=*/false);
    if (!Compiler->hasDiagnostics() || !Compiler->createTarget())
      return false;
    Compiler->createSourceManager(*Files);
    auto Action = std::make_unique<ParseAction>(P.Lines, P.Decls);
    const FrontendInputFile &Input = Compiler->getFrontendOpts().Inputs.front();
    P.Compiler = std::move(Compiler);
    if (!Action->BeginSourceFile(*P.Compiler, Input))
      return false;
    P.Action = std::move(Action);
    if (llvm::Error Err = P.Action->Execute()) {
      llvm::consumeError(std::move(Err));
      return false;
    }
    return P.Parsed = true;
  }

private:
  ParsedSource &P;
};

ParsedSource::ParsedSource() = default;

ParsedSource::~ParsedSource() {
  Lines.reset();
  if (Action)
    Action->EndSourceFile();
  Action.reset();
  Compiler.reset();
}

std::unique_ptr<ParsedSource>
ParsedSource::parse(StringRef Code,
                    ArrayRef<std::pair<std::string, std::string>> More) {
  return parseAs(Code, More, /*Cuda=*/false);
}

std::unique_ptr<ParsedSource> ParsedSource::parseCuda(StringRef Code) {
  return parseAs(Code, {}, /*Cuda=*/true);
}

std::unique_ptr<ParsedSource>
ParsedSource::parseAs(StringRef Code,
                      ArrayRef<std::pair<std::string, std::string>> More,
                      bool Cuda) {
  std::unique_ptr<ParsedSource> P(new ParsedSource);
  std::vector<std::pair<std::string, llvm::MemoryBufferRef>> Files{
      {MainFile.str(), llvm::MemoryBufferRef(Code, MainFile)}};
  for (const auto &[Path, Text] : More)
    Files.push_back({Path, llvm::MemoryBufferRef(Text, Path)});
  // The dialect header from the precompiled header, when the snippet
  // starts by including it: its own #include then finds it included.
  std::vector<std::string> Extra;
  if (Code.starts_with(PreludeText))
    if (const llvm::MemoryBuffer *PCH = dialectPCH()) {
      Files.push_back(
          {PreludeFile.str(), llvm::MemoryBufferRef(PreludeText, PreludeFile)});
      Files.push_back({PCHFile.str(), PCH->getMemBufferRef()});
      Extra = {"-include-pch", PCHFile.str()};
    }
  P->Files = new FileManager(FileSystemOptions(), fileSystem(Files));

  P->PrintedStream = std::make_unique<llvm::raw_string_ostream>(P->Printed);
  P->Printer = std::make_unique<TextDiagnosticPrinter>(*P->PrintedStream,
                                                       new DiagnosticOptions);
  KeepParsed Keep(*P);
  tooling::ToolInvocation Invocation(
      commandFor(MainFile, Extra, Cuda), &Keep, P->Files.get(),
      std::make_shared<PCHContainerOperations>());
  Invocation.setDiagnosticConsumer(P->Printer.get());
  Invocation.run();
  return P;
}

std::unique_ptr<ParsedSource> ParsedSource::parseDialect(StringRef Code) {
  return parse((PreludeText + "using namespace hpp;\n" + Code).str());
}

bool ParsedSource::ok() const {
  return Parsed && Compiler && Compiler->hasDiagnostics() &&
         !Compiler->getDiagnostics().hasErrorOccurred();
}

std::string ParsedSource::diagnostics() const {
  PrintedStream->flush();
  return Printed;
}

ASTContext &ParsedSource::context() { return Compiler->getASTContext(); }
CompilerInstance &ParsedSource::compiler() { return *Compiler; }
SourceManager &ParsedSource::sourceManager() {
  return Compiler->getSourceManager();
}
const LangOptions &ParsedSource::langOpts() { return Compiler->getLangOpts(); }
DiagnosticsEngine &ParsedSource::diagnosticsEngine() {
  return Compiler->getDiagnostics();
}
Preprocessor &ParsedSource::preprocessor() {
  return Compiler->getPreprocessor();
}
LineDirectives &ParsedSource::lines() { return *Lines; }

StringRef ParsedSource::code() const {
  const SourceManager &SM = Compiler->getSourceManager();
  return SM.getBufferData(SM.getMainFileID());
}

const FunctionDecl *ParsedSource::function(StringRef Name) const {
  for (const FunctionDecl *FD : indexOf(Decls).Functions)
    if (FD->getNameAsString() == Name)
      return FD;
  return nullptr;
}

const VarDecl *ParsedSource::variable(StringRef Name) const {
  for (const VarDecl *VD : indexOf(Decls).Variables)
    if (VD->getDeclName().isIdentifier() && VD->getName() == Name)
      return VD;
  return nullptr;
}

std::vector<const LambdaExpr *> ParsedSource::lambdas() const {
  return indexOf(Decls).Lambdas;
}

std::vector<const FunctionDecl *> ParsedSource::deviceFunctions() const {
  std::vector<const FunctionDecl *> Out;
  for (const FunctionDecl *FD : indexOf(Decls).Functions)
    if (!isa<CXXMethodDecl>(FD) ||
        !cast<CXXMethodDecl>(FD)->getParent()->isLambda())
      if (isDeviceAnnotated(FD))
        Out.push_back(FD);
  return Out;
}

std::vector<const LambdaExpr *> ParsedSource::outermostDeviceLambdas() const {
  std::vector<const LambdaExpr *> Out;
  for (const LambdaExpr *LE : indexOf(Decls).Lambdas) {
    if (!isDeviceAnnotated(LE->getCallOperator()))
      continue;
    bool Nested = false;
    for (const DeclContext *DC = LE->getLambdaClass()->getDeclContext(); DC;
         DC = DC->getParent())
      if (const auto *FD = dyn_cast<FunctionDecl>(DC))
        Nested |= isDeviceAnnotated(FD);
    if (!Nested)
      Out.push_back(LE);
  }
  return Out;
}

unsigned ParsedSource::offsetOf(StringRef Needle, unsigned Nth) const {
  StringRef Text = code();
  size_t At = Text.find(Needle);
  for (unsigned I = 0; I < Nth && At != StringRef::npos; ++I)
    At = Text.find(Needle, At + 1);
  if (At == StringRef::npos) {
    ADD_FAILURE() << "'" << Needle.str() << "' (occurrence " << Nth
                  << ") is not in the snippet";
    return 0;
  }
  return unsigned(At);
}

SourceLocation ParsedSource::locationOf(StringRef Needle, unsigned Nth) const {
  const SourceManager &SM = Compiler->getSourceManager();
  return SM.getLocForStartOfFile(SM.getMainFileID())
      .getLocWithOffset(offsetOf(Needle, Nth));
}

const Expr *ParsedSource::exprAt(StringRef Needle, unsigned Nth) const {
  const unsigned Begin = offsetOf(Needle, Nth);
  Index Finder(Compiler->getSourceManager(), Compiler->getLangOpts(), Begin,
               Begin + unsigned(Needle.size()));
  Finder.walk(Decls);
  return Finder.Found;
}

std::string ParsedSource::positionOf(StringRef Needle, unsigned Nth) const {
  return lineColumn(locationOf(Needle, Nth));
}

std::string ParsedSource::lineColumn(SourceLocation Loc) const {
  const SourceManager &SM = Compiler->getSourceManager();
  if (Loc.isInvalid())
    return "";
  Loc = SM.getExpansionLoc(Loc);
  if (!SM.isWrittenInMainFile(Loc))
    return "";
  return std::to_string(SM.getExpansionLineNumber(Loc)) + ":" +
         std::to_string(SM.getExpansionColumnNumber(Loc));
}

bool parsed(const ParsedSource &TU) {
  if (TU.ok())
    return true;
  ADD_FAILURE() << "the snippet does not parse:\n" << TU.diagnostics();
  return false;
}

} // namespace test
} // namespace rewrite
} // namespace hpp
