//===- RuleSelection.cpp - --rules, --disable, --warnings-as-errors -------===//
//
// Part of hpp-rewrite.
//
//===----------------------------------------------------------------------===//

#include "hpp-rewrite/RuleRegistry.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/GlobPattern.h"

#include <string>
#include <vector>

using llvm::Error;
using llvm::Expected;
using llvm::GlobPattern;
using llvm::SmallVector;
using llvm::StringRef;
using llvm::StringSet;

namespace hpp {
namespace rewrite {

namespace {

/// One item of a rule list: a name or glob, and the rules it matches.
struct ListItem {
  std::string Pattern;
  bool Remove = false; ///< written with a leading `-`
  std::vector<const RuleInfo *> Matches;
};

bool isGlob(StringRef S) { return S.find_first_of("*?[") != StringRef::npos; }

/// The registered tag closest to \p Name, when it is close enough to be a
/// misspelling of it.
std::string closestRule(StringRef Name) {
  StringRef Best;
  unsigned BestDistance = ~0u;
  for (const RuleInfo &R : registeredRules()) {
    unsigned D = Name.edit_distance(R.Name, /*AllowReplacements=*/true);
    if (D < BestDistance) {
      BestDistance = D;
      Best = R.Name;
    }
  }
  if (BestDistance > std::max<size_t>(3, Name.size() / 3))
    return "";
  return Best.str();
}

/// Parses \p List, the value of --\p Option: comma-separated names or globs,
/// with a leading `-` where \p AllowRemove.
Expected<std::vector<ListItem>> parseList(StringRef List, StringRef Option,
                                          bool AllowRemove) {
  std::vector<ListItem> Items;
  SmallVector<StringRef, 8> Parts;
  List.split(Parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef Part : Parts) {
    Part = Part.trim();
    if (Part.empty())
      continue;
    ListItem Item;
    if (AllowRemove && Part.consume_front("-")) {
      Item.Remove = true;
      Part = Part.ltrim();
    }
    Item.Pattern = Part.str();
    Expected<GlobPattern> Glob = GlobPattern::create(Part);
    if (!Glob)
      return llvm::createStringError("invalid pattern '" + Item.Pattern +
                                     "' in --" + Option + ": " +
                                     llvm::toString(Glob.takeError()));
    for (const RuleInfo &R : registeredRules())
      if (Glob->match(R.Name))
        Item.Matches.push_back(&R);
    if (Item.Matches.empty()) {
      std::string Message =
          "unknown rule '" + Item.Pattern + "' in --" + Option.str();
      std::string Close = isGlob(Part) ? "" : closestRule(Part);
      if (!Close.empty())
        Message += "; did you mean '" + Close + "'?";
      else
        Message += ": it matches no rule";
      return llvm::createStringError(Message + " (--list-rules lists them)");
    }
    Items.push_back(std::move(Item));
  }
  return Items;
}

/// What rule \p R is, and why it cannot be turned off.
std::string whyAlwaysOn(const RuleInfo &R) {
  if (R.Kind == RuleKind::Lowering)
    return "a lowering rule: without its rewrite the output would be "
           "silently wrong";
  return "an error check: without it, what it refuses would be lowered "
         "wrongly";
}

/// Turns off the warning checks \p Item matches. A name of another rule, or
/// a glob that matches no warning check, is an error.
Error turnOff(const ListItem &Item, StringRef Option, StringSet<> &Off) {
  const RuleInfo *Fixed = nullptr;
  bool AnyCheck = false;
  for (const RuleInfo *R : Item.Matches) {
    if (R->Kind == RuleKind::WarningCheck) {
      Off.insert(R->Name);
      AnyCheck = true;
    } else if (!Fixed) {
      Fixed = R;
    }
  }
  // A glob turns off the warning checks among what it matches.
  if (!Fixed || (AnyCheck && isGlob(Item.Pattern)))
    return Error::success();
  std::string Message = "--" + Option.str() + ": ";
  if (isGlob(Item.Pattern))
    Message += "'" + Item.Pattern +
               "' matches only rules that cannot be turned off, such as '" +
               Fixed->Name.str() + "' (" + whyAlwaysOn(*Fixed) + ")";
  else
    Message += "'" + Fixed->Name.str() + "' cannot be turned off: it is " +
               whyAlwaysOn(*Fixed);
  return llvm::createStringError(Message +
                                 "; only warning checks can be turned off, "
                                 "lowering rules and error checks always run "
                                 "(--list-rules)");
}

} // namespace

Error RuleSelection::selectChecks(StringRef List) {
  auto Items = parseList(List, "rules", /*AllowRemove=*/true);
  if (!Items)
    return Items.takeError();
  // The list starts from no warning check, as `-*,` would.
  for (const RuleInfo &R : registeredRules())
    if (R.Kind == RuleKind::WarningCheck)
      Off.insert(R.Name);
  for (const ListItem &Item : *Items) {
    if (Item.Remove) {
      if (Error E = turnOff(Item, "rules", Off))
        return E;
      continue;
    }
    for (const RuleInfo *R : Item.Matches)
      Off.erase(R->Name); // Lowering rules and error checks are never off.
  }
  return Error::success();
}

Error RuleSelection::disableChecks(StringRef List) {
  auto Items = parseList(List, "disable", /*AllowRemove=*/false);
  if (!Items)
    return Items.takeError();
  for (const ListItem &Item : *Items)
    if (Error E = turnOff(Item, "disable", Off))
      return E;
  return Error::success();
}

Error RuleSelection::restrictTo(StringRef List) {
  auto Items = parseList(List, "simulate", /*AllowRemove=*/false);
  if (!Items)
    return Items.takeError();
  Restricted = true;
  for (const ListItem &Item : *Items)
    for (const RuleInfo *R : Item.Matches)
      Only.insert(R->Name);
  return Error::success();
}

Error RuleSelection::setRemarks(StringRef List) {
  Quiet.clear();
  for (const RuleInfo &R : registeredRules())
    Quiet.insert(R.Name);
  auto Items = parseList(List, "remarks", /*AllowRemove=*/true);
  if (!Items)
    return Items.takeError();
  for (const ListItem &Item : *Items)
    for (const RuleInfo *R : Item.Matches) {
      if (Item.Remove)
        Quiet.insert(R->Name);
      else
        Quiet.erase(R->Name);
    }
  return Error::success();
}

Error RuleSelection::setWarningsAsErrors(StringRef List) {
  auto Items = parseList(List, "warnings-as-errors", /*AllowRemove=*/true);
  if (!Items)
    return Items.takeError();
  for (const ListItem &Item : *Items)
    for (const RuleInfo *R : Item.Matches) {
      if (Item.Remove)
        AsErrors.erase(R->Name);
      else
        AsErrors.insert(R->Name);
    }
  return Error::success();
}

} // namespace rewrite
} // namespace hpp
