//===- DynamicASTVisitorTest.cpp - One traversal, virtual callbacks -------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Tests of DynamicASTVisitor (lib/Framework/DynamicASTVisitor.h): the calls
/// and their order are RecursiveASTVisitor's (the same snippet traversed by
/// both gives the same trace), an overridden Traverse* replaces the default
/// one, a false return stops the traversal, the options are honoured, and
/// deep expressions do not exhaust the stack.
///
//===----------------------------------------------------------------------===//

#include "Framework/DynamicASTVisitor.h"
#include "AnalysisTestSupport.h"

#include "clang/AST/RecursiveASTVisitor.h"
#include "gtest/gtest.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace clang;

namespace hpp {
namespace rewrite {
namespace test {
namespace {

/// Records every node kind it is called for: class names of statements and
/// declarations, and whether a Visit* of a base class came first.
class Trace : public DynamicASTVisitor {
public:
  std::vector<std::string> Calls;
  bool VisitStmt(Stmt *S) override {
    Calls.push_back(std::string("Stmt:") + S->getStmtClassName());
    return true;
  }
  bool VisitExpr(Expr *) override {
    Calls.push_back("Expr");
    return true;
  }
  bool VisitCallExpr(CallExpr *) override {
    Calls.push_back("CallExpr");
    return true;
  }
  bool VisitDecl(Decl *D) override {
    Calls.push_back(std::string("Decl:") + D->getDeclKindName());
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) override {
    Calls.push_back("Function:" + FD->getNameAsString());
    return true;
  }
  bool VisitBuiltinTypeLoc(BuiltinTypeLoc) override {
    Calls.push_back("BuiltinTypeLoc");
    return true;
  }
};

/// The same callbacks on clang's template, the behaviour to match.
class StaticTrace : public RecursiveASTVisitor<StaticTrace> {
public:
  std::vector<std::string> Calls;
  bool Instantiations = false;
  bool shouldVisitTemplateInstantiations() const { return Instantiations; }
  bool VisitStmt(Stmt *S) {
    Calls.push_back(std::string("Stmt:") + S->getStmtClassName());
    return true;
  }
  bool VisitExpr(Expr *) {
    Calls.push_back("Expr");
    return true;
  }
  bool VisitCallExpr(CallExpr *) {
    Calls.push_back("CallExpr");
    return true;
  }
  bool VisitDecl(Decl *D) {
    Calls.push_back(std::string("Decl:") + D->getDeclKindName());
    return true;
  }
  bool VisitFunctionDecl(FunctionDecl *FD) {
    Calls.push_back("Function:" + FD->getNameAsString());
    return true;
  }
  bool VisitBuiltinTypeLoc(BuiltinTypeLoc) {
    Calls.push_back("BuiltinTypeLoc");
    return true;
  }
};

const char *const Snippet = R"cpp(
template <typename T> T twice(T X) { return X + X; }
struct S { int M = 1; int get() const { return M; } };
int f(int A) {
  auto L = [A](int B) { return twice(A) + B; };
  S Obj;
  int Sum = 0;
  for (int I = 0; I < 3; ++I)
    Sum += L(I) + Obj.get();
  return Sum;
}
)cpp";

std::unique_ptr<ParsedSource> parseOk(llvm::StringRef Code) {
  auto TU = ParsedSource::parse(Code);
  EXPECT_TRUE(TU->ok()) << TU->diagnostics();
  return TU;
}

TEST(DynamicASTVisitorTest, SameCallsInSameOrderAsRecursiveASTVisitor) {
  auto TU = parseOk(Snippet);
  for (bool Instantiations : {false, true}) {
    Trace Dynamic;
    Dynamic.ShouldVisitTemplateInstantiations = Instantiations;
    StaticTrace Static;
    Static.Instantiations = Instantiations;
    ASSERT_TRUE(Dynamic.TraverseAST(TU->context()));
    ASSERT_TRUE(Static.TraverseAST(TU->context()));
    EXPECT_GT(Dynamic.Calls.size(), 50u);
    EXPECT_EQ(Dynamic.Calls, Static.Calls)
        << "instantiations " << Instantiations;
  }
}

TEST(DynamicASTVisitorTest, BaseClassesAreVisitedFirst) {
  auto TU = parseOk("void g(); void h() { g(); }");
  Trace T;
  T.TraverseAST(TU->context());
  auto It = std::find(T.Calls.begin(), T.Calls.end(), "CallExpr");
  ASSERT_NE(It, T.Calls.end());
  ASSERT_GE(It - T.Calls.begin(), 2);
  EXPECT_EQ(*(It - 2), "Stmt:CallExpr");
  EXPECT_EQ(*(It - 1), "Expr");
}

TEST(DynamicASTVisitorTest, TemplateInstantiationsOnlyWhenAsked) {
  auto TU = parseOk("template <typename T> T one() { return T(1); }\n"
                    "int a = one<int>(); long b = one<long>();");
  auto Count = [&](bool Instantiations) {
    Trace T;
    T.ShouldVisitTemplateInstantiations = Instantiations;
    T.TraverseAST(TU->context());
    return std::count(T.Calls.begin(), T.Calls.end(), "Function:one");
  };
  // The tool's traversal scope (the parser's top-level declarations) lists
  // the two instantiated functions already; asked to, the traversal also
  // reaches them through the template.
  EXPECT_EQ(Count(false), 3);
  EXPECT_EQ(Count(true), 5);
}

/// Skips lambda bodies by overriding their traversal.
class CallsOutsideLambdas : public DynamicASTVisitor {
public:
  unsigned Calls = 0, Lambdas = 0;
  bool TraverseLambdaExpr(LambdaExpr *) override {
    ++Lambdas;
    return true;
  }
  bool VisitCallExpr(CallExpr *) override {
    ++Calls;
    return true;
  }
};

TEST(DynamicASTVisitorTest, OverriddenTraverseReplacesTheDefault) {
  auto TU = parseOk("void g(); void h() { g(); auto L = [] { g(); g(); }; "
                    "L(); }");
  CallsOutsideLambdas V;
  V.TraverseAST(TU->context());
  EXPECT_EQ(V.Lambdas, 1u);
  EXPECT_EQ(V.Calls, 2u); // g() and L(), not the two in the lambda.
}

/// Stops at the first call.
class FirstCall : public DynamicASTVisitor {
public:
  unsigned Seen = 0;
  bool VisitCallExpr(CallExpr *) override {
    ++Seen;
    return false;
  }
};

TEST(DynamicASTVisitorTest, FalseStopsTheTraversal) {
  auto TU = parseOk("void g(); void h() { g(); g(); g(); }");
  FirstCall V;
  EXPECT_FALSE(V.TraverseAST(TU->context()));
  EXPECT_EQ(V.Seen, 1u);
}

/// Counts integer literals, the leaves of a deep expression.
class Literals : public DynamicASTVisitor {
public:
  unsigned Seen = 0;
  bool VisitIntegerLiteral(IntegerLiteral *) override {
    ++Seen;
    return true;
  }
};

TEST(DynamicASTVisitorTest, DeepExpressionsAreTraversed) {
  // A left-nested chain of 20,000 additions: the traversal recurses once
  // per level (no data recursion queue) and must not run out of stack.
  std::string Code = "int x = 0";
  for (int I = 0; I < 20000; ++I)
    Code += " + 1";
  Code += ";";
  auto TU = parseOk(Code);
  Literals V;
  EXPECT_TRUE(V.TraverseAST(TU->context()));
  EXPECT_EQ(V.Seen, 20001u);
}

} // namespace
} // namespace test
} // namespace rewrite
} // namespace hpp
