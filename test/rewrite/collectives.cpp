// The work-group and warp collectives (groupReduce, groupInclusiveScan,
// groupExclusiveScan, groupBroadcast, warpReduce, warpInclusiveScan,
// warpExclusiveScan, warpBroadcast, warpBallotRank, warpBallotCount) in
// parallelFor bodies, with int, float and a non-commutative associative
// op (affine maps mod 2^32), on work-groups of 32, 64, 96 and 256, a
// partial last work-group and a 2-D partial work-group (group forms only:
// a warp collective with lanes past the end of the range is an error).
// The program computes every expected value itself, in plain C++, in the
// order docs/dialect.md gives (for floats that order decides the bits: a
// left fold gives other values, which the program shows), and prints "ok"
// or the mismatches. The group results do not depend on the mvector
// width: the reference prints the same "group" lines at 32 and 64. The
// kernels use the width through the warp collectives only: they run on
// whole wavefronts, and the calls stay as written. The rewritten program
// on the CPU backend prints what the reference prints, bit for bit.
// RUN: %hpp_rewrite %s -o %t.cpp 2>&1 | count 0
// RUN: %strip %t.cpp | FileCheck %s
// RUN: %cxx -I %hpp_include %s -o %t.ref
// RUN: env HPP_CPU_MVECTOR=32 %t.ref > %t.out32
// RUN: env HPP_CPU_MVECTOR=64 %t.ref > %t.out64
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.out32
// RUN: FileCheck %s --check-prefix=OUT --match-full-lines < %t.out64
// RUN: grep '^group' %t.out32 > %t.group32
// RUN: grep '^group' %t.out64 | diff %t.group32 -
// RUN: %cxx_runtime %t.cpp -o %t.exe
// RUN: env HPP_CPU_MVECTOR=32 %t.exe | diff %t.out32 -
// RUN: env HPP_CPU_MVECTOR=64 %t.exe | diff %t.out64 -
// RUN: %gpu_check %t.cpp
//
// CHECK: r.gi = groupReduce(vi, Plus<int>());
// CHECK: r.wf = warpReduce(vf, Plus<float>());
// OUT: group full 32: ok
// OUT-NEXT: warp 32: ok
// OUT-NEXT: group full 64: ok
// OUT-NEXT: warp 64: ok
// OUT-NEXT: group full 96: ok
// OUT-NEXT: warp 96: ok
// OUT-NEXT: group full 256: ok
// OUT-NEXT: warp 256: ok
// OUT-NEXT: group partial 96: ok
// OUT-NEXT: group 2-D 16x4: ok
// OUT-NEXT: float order matters: yes
// OUT-NOT: {{.}}

#include <hpp/hpp.h>

#include <cstdio>
#include <cstring>
#include <vector>

using namespace hpp;

/// x -> A * x + B (mod 2^32); (f then g) is associative, not commutative.
struct Affine {
  unsigned A, B;
};
struct Then {
  __device(hpp) Affine operator()(const Affine &F, const Affine &G) const {
    return Affine{G.A * F.A, G.A * F.B + G.B};
  }
};
bool operator==(const Affine &X, const Affine &Y) {
  return X.A == Y.A && X.B == Y.B;
}

/// Every result of one work-item.
struct Results {
  int gi, gsi, gei, gbi;
  float gf, gsf, gef, gmin;
  Affine ga;
  int wi, wei, wbi, rank, count;
  float wf, wsf, wmax;
  Affine wa;
};

// The inputs of work-item g.
inline int inInt(size_t g) { return int(g % 7) - 3; }
inline float inFloat(size_t g) { return (g % 3 == 0 ? 1.0e6f : 1.0f) / float(g + 1); }
inline Affine inAffine(size_t g) { return Affine{unsigned(2 * g + 1), unsigned(g)}; }

//===-------------------- the documented order, in plain C++ -------------===//
struct Opt {
  float V;
  bool P;
};
template <class F> Opt comb(Opt X, Opt Y, F f) {
  return !X.P ? Y : !Y.P ? X : Opt{f(X.V, Y.V), true};
}
/// Down-tree over N (a power of two) values, read at 0.
template <class F> Opt downTree(std::vector<Opt> V, F f) {
  for (size_t o = V.size() / 2; o >= 1; o /= 2)
    for (size_t l = 0; l < o; ++l)
      V[l] = comb(V[l], V[l + o], f);
  return V[0];
}
/// Kogge-Stone over N values.
template <class F> std::vector<Opt> koggeStone(std::vector<Opt> V, F f) {
  for (size_t d = 1; d < V.size(); d *= 2) {
    std::vector<Opt> Old = V;
    for (size_t l = d; l < V.size(); ++l)
      V[l] = comb(Old[l - d], Old[l], f);
  }
  return V;
}
float addF(float a, float b) { return a + b; }
float minF(float a, float b) { return b < a ? b : a; }
float maxF(float a, float b) { return a < b ? b : a; }

/// The group's reduce, or item t's inclusive / exclusive scan.
template <class F>
float groupOrder(const std::vector<Opt> &In, int Kind, size_t t, float Init,
                 F f) {
  size_t Segs = (In.size() + 31) / 32;
  std::vector<Opt> Tot(32, Opt{0, false});
  std::vector<std::vector<Opt>> Lanes(Segs);
  for (size_t s = 0; s < Segs; ++s) {
    std::vector<Opt> Seg(32, Opt{0, false});
    for (size_t l = 0; l < 32 && s * 32 + l < In.size(); ++l)
      Seg[l] = In[s * 32 + l];
    Lanes[s] = koggeStone(Seg, f);
    Tot[s] = Kind == 0 ? downTree(Seg, f) : Lanes[s][31];
  }
  if (Kind == 0)
    return downTree(Tot, f).V;
  std::vector<Opt> Pre = koggeStone(Tot, f);
  size_t s = t / 32, l = t % 32;
  Opt SegP = s > 0 ? Pre[s - 1] : Opt{0, false};
  if (Kind == 1)
    return comb(SegP, Lanes[s][l], f).V;
  Opt B = comb(SegP, l > 0 ? Lanes[s][l - 1] : Opt{0, false}, f);
  return B.P ? f(Init, B.V) : Init;
}

/// Warp order over the W lanes from Base (Count of them exist).
template <class F>
float warpOrder(const std::vector<float> &V, size_t Base, size_t Count,
                size_t W, int Kind, size_t l, float Init, F f) {
  std::vector<Opt> In(W, Opt{0, false});
  for (size_t k = 0; k < Count; ++k)
    In[k] = Opt{V[Base + k], true};
  if (Kind == 0)
    return downTree(In, f).V;
  std::vector<Opt> K = koggeStone(In, f);
  if (Kind == 1)
    return K[l].V;
  return l == 0 ? Init : f(Init, K[l - 1].V);
}

static int Failures = 0;
template <class T>
void expect(const char *What, size_t g, const T &Got, const T &Want) {
  if (!(Got == Want) && Failures++ < 10)
    std::printf("mismatch %s at %zu\n", What, g);
}
bool same(float A, float B) { return std::memcmp(&A, &B, sizeof A) == 0; }
void expectF(const char *What, size_t g, float Got, float Want) {
  expect(What, g, same(Got, Want), true);
}

/// The group forms' expectations for the work-items [B, B + G) of which
/// the first N... are present (Present[i]).
void checkGroup(const std::vector<Results> &R, size_t Base, size_t G,
                const std::vector<bool> &Present,
                const std::vector<size_t> &Global) {
  std::vector<Opt> F(G), Fm(G);
  int Sum = 0;
  Affine Acc{1, 0};
  int Run = 0;
  Affine RunA{1, 0};
  for (size_t t = 0; t < G; ++t)
    if (Present[t]) {
      F[t] = Opt{inFloat(Global[t]), true};
      Sum += inInt(Global[t]);
      Acc = Then()(Acc, inAffine(Global[t]));
    } else {
      F[t] = Opt{0, false};
    }
  float RedF = groupOrder(F, 0, 0, 0, addF);
  for (size_t t = 0; t < G; ++t) {
    if (!Present[t])
      continue;
    const Results &X = R[Base + t];
    size_t g = Global[t];
    expect("groupReduce int", g, X.gi, Sum);
    expect("groupExclusiveScan int", g, X.gei, Run + 5);
    Run += inInt(g);
    expect("groupInclusiveScan int", g, X.gsi, Run);
    RunA = Then()(RunA, inAffine(g));
    expect("groupInclusiveScan affine", g, X.ga, RunA);
    expect("groupBroadcast", g, X.gbi, inInt(Global[1]) * 10);
    expectF("groupReduce float", g, X.gf, RedF);
    expectF("groupInclusiveScan float", g, X.gsf,
            groupOrder(F, 1, t, 0, addF));
    expectF("groupExclusiveScan float", g, X.gef,
            groupOrder(F, 2, t, 0.5f, addF));
    expectF("groupInclusiveScan min", g, X.gmin, groupOrder(F, 1, t, 0, minF));
  }
  (void)Acc;
}

/// Runs the group and warp forms over n work-items in groups of G.
void run1D(size_t n, size_t G, bool Warp, const char *Label) {
  Pointer<Results> R = allocate<Results>(n);
  parallelFor(Range<1, 1>(n, G), [=](Index<1, 1> i) __device(hpp) {
    size_t g = i.getX();
    int vi = inInt(g);
    float vf = inFloat(g);
    Results &r = R[g];
    r.gi = groupReduce(vi, Plus<int>());
    r.gsi = groupInclusiveScan(vi, Plus<int>());
    r.gei = groupExclusiveScan(vi, 5, Plus<int>());
    r.gbi = groupBroadcast(vi * 10, 1);
    r.gf = groupReduce(vf, Plus<float>());
    r.gsf = groupInclusiveScan(vf, Plus<float>());
    r.gef = groupExclusiveScan(vf, 0.5f, Plus<float>());
    r.gmin = groupInclusiveScan(vf, Minimum<float>());
    r.ga = groupInclusiveScan(inAffine(g), Then());
    if (!Warp)
      return;
    r.wi = warpReduce(vi, Maximum<int>());
    r.wei = warpExclusiveScan(vi, -1, Plus<int>());
    r.wbi = warpBroadcast(vi, int(i.getLocalX() % 7));
    r.rank = warpBallotRank(vi > 0);
    r.count = warpBallotCount(vi > 0);
    r.wf = warpReduce(vf, Plus<float>());
    r.wsf = warpInclusiveScan(vf, Plus<float>());
    r.wmax = warpExclusiveScan(vf, 2.0f, Maximum<float>());
    r.wa = warpInclusiveScan(inAffine(g), Then());
  });
  std::vector<Results> H(R.get(), R.get() + n);
  Failures = 0;
  for (size_t Base = 0; Base < n; Base += G) {
    std::vector<bool> Present(G);
    std::vector<size_t> Global(G);
    for (size_t t = 0; t < G; ++t) {
      Present[t] = Base + t < n;
      Global[t] = Base + t;
    }
    checkGroup(H, Base, G, Present, Global);
  }
  std::printf("group %s %zu: %s\n", Label, G, Failures ? "FAILED" : "ok");
  if (!Warp)
    return;
  Failures = 0;
  const size_t W = size_t(MVECTOR_SIZE);
  std::vector<float> F(n);
  for (size_t g = 0; g < n; ++g)
    F[g] = inFloat(g);
  for (size_t g = 0; g < n; ++g) {
    size_t Group = g / G * G, t = g % G, Base = Group + t / W * W, l = t % W;
    size_t Count = G - t / W * W < W ? G - t / W * W : W;
    int Max = -100, Before = -1, Rank = 0, Cnt = 0;
    Affine A{1, 0};
    for (size_t k = 0; k < Count; ++k) {
      int v = inInt(Base + k);
      Max = v > Max ? v : Max;
      if (k < l)
        Before += v;
      Rank += k < l && v > 0;
      Cnt += v > 0;
      if (k <= l)
        A = Then()(A, inAffine(Base + k));
    }
    const Results &X = H[g];
    expect("warpReduce max", g, X.wi, Max);
    expect("warpExclusiveScan int", g, X.wei, Before);
    expect("warpBroadcast", g, X.wbi, inInt(Base + t % 7));
    expect("warpBallotRank", g, X.rank, Rank);
    expect("warpBallotCount", g, X.count, Cnt);
    expect("warpInclusiveScan affine", g, X.wa, A);
    expectF("warpReduce float", g, X.wf,
            warpOrder(F, Base, Count, W, 0, l, 0, addF));
    expectF("warpInclusiveScan float", g, X.wsf,
            warpOrder(F, Base, Count, W, 1, l, 0, addF));
    expectF("warpExclusiveScan max", g, X.wmax,
            warpOrder(F, Base, Count, W, 2, l, 2.0f, maxF));
  }
  std::printf("warp %zu: %s\n", G, Failures ? "FAILED" : "ok");
  deallocate(R);
}

/// groupReduce and the scans on a 2-D range whose last work-group in x is
/// partial: its absent work-items are not the last ids of the group.
void run2D() {
  const size_t NX = 20, NY = 6, LX = 16, LY = 4;
  Pointer<Results> R = allocate<Results>(NX * NY);
  parallelFor(Range<2, 2>(Range<2>(NX, NY), Range<2>(LX, LY)),
              [=](Index<2, 2> i) __device(hpp) {
                size_t g = i.getY() * NX + i.getX();
                Results &r = R[g];
                float vf = inFloat(g);
                int vi = inInt(g);
                r.gi = groupReduce(vi, Plus<int>());
                r.gsi = groupInclusiveScan(vi, Plus<int>());
                r.gei = groupExclusiveScan(vi, 5, Plus<int>());
                r.gbi = groupBroadcast(vi * 10, 1);
                r.gf = groupReduce(vf, Plus<float>());
                r.gsf = groupInclusiveScan(vf, Plus<float>());
                r.gef = groupExclusiveScan(vf, 0.5f, Plus<float>());
                r.gmin = groupInclusiveScan(vf, Minimum<float>());
                r.ga = groupInclusiveScan(inAffine(g), Then());
              });
  Failures = 0;
  std::vector<Results> Packed;
  size_t Base = 0;
  for (size_t GY = 0; GY < (NY + LY - 1) / LY; ++GY)
    for (size_t GX = 0; GX < (NX + LX - 1) / LX; ++GX) {
      std::vector<bool> Present(LX * LY);
      std::vector<size_t> Global(LX * LY);
      for (size_t t = 0; t < LX * LY; ++t) {
        size_t x = GX * LX + t % LX, y = GY * LY + t / LX;
        Present[t] = x < NX && y < NY;
        Global[t] = Present[t] ? y * NX + x : 0;
        Packed.push_back(Present[t] ? R[Global[t]] : Results{});
      }
      checkGroup(Packed, Base, LX * LY, Present, Global);
      Base += LX * LY;
    }
  std::printf("group 2-D 16x4: %s\n", Failures ? "FAILED" : "ok");
  deallocate(R);
}

int main() {
  run1D(3 * 32, 32, true, "full");
  run1D(3 * 64, 64, true, "full");
  run1D(3 * 96, 96, true, "full");
  run1D(2 * 256, 256, true, "full");
  run1D(2 * 96 + 37, 96, false, "partial");
  run2D();
  // A left fold of the float inputs differs from the tree: the order is
  // what makes the bits portable.
  std::vector<Opt> F(256);
  float Left = 0;
  for (size_t g = 0; g < 256; ++g) {
    F[g] = Opt{inFloat(g), true};
    Left += inFloat(g);
  }
  std::printf("float order matters: %s\n",
              same(Left, groupOrder(F, 0, 0, 0, addF)) ? "no" : "yes");
}
