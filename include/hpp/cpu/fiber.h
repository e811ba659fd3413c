//===- hpp/cpu/fiber.h - Stackful fibers for the work-items ---------------===//
//
// Part of hpp-rewrite. CPU reference runtime (shared with the device
// runtime's CPU backend).
//
//===----------------------------------------------------------------------===//
///
/// \file
/// Fiber: an execution context with its own stack, and Fiber::swap, which
/// suspends one context and resumes another on the same host thread.
///
/// On x86-64 the switch is a dozen instructions (the callee-saved registers,
/// the stack pointer, MXCSR and the x87 control word), because ucontext's
/// swapcontext makes a system call per switch to save the signal mask: on a
/// virtual machine that is microseconds, and every work-item needs at least
/// two switches. Elsewhere, when -DHPP_CPU_UCONTEXT_FIBERS is given, or when
/// the process runs with a CET shadow stack (which the short switch does not
/// maintain), fibers use getcontext/makecontext/swapcontext.
///
/// A fiber's entry function must never return: GroupExecutor's fibers loop
/// forever, running one work-item per turn, and are abandoned (their stacks
/// freed) with the host thread's fiber pools.
///
//===----------------------------------------------------------------------===//
#ifndef HPP_CPU_FIBER_H
#define HPP_CPU_FIBER_H

#include <cstddef>
#include <cstdint>
#include <memory>

#include <ucontext.h>

#if defined(__x86_64__) && defined(__ELF__) &&                                \
    !defined(HPP_CPU_UCONTEXT_FIBERS)
#define HPP_CPU_NATIVE_FIBERS 1

extern "C" void hpp_cpu_fiber_switch(void **SaveSp, void *LoadSp);

// hpp_cpu_fiber_switch(Save, Load): pushes the callee-saved registers and the
// floating-point control words, stores the stack pointer in *Save, loads
// Load and pops the same from there. hpp_cpu_fiber_start is where a new
// fiber's first switch returns to: it calls the entry function kept in rbx.
// COMDAT sections, so every translation unit can carry a copy.
asm(R"(
  .pushsection .text.hpp_cpu_fiber_switch,"axG",@progbits,hpp_cpu_fiber_switch,comdat
  .globl hpp_cpu_fiber_switch
  .hidden hpp_cpu_fiber_switch
  .type hpp_cpu_fiber_switch,@function
hpp_cpu_fiber_switch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  subq $16, %rsp
  fnstcw (%rsp)
  stmxcsr 8(%rsp)
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  fldcw (%rsp)
  ldmxcsr 8(%rsp)
  addq $16, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size hpp_cpu_fiber_switch, .-hpp_cpu_fiber_switch
  .popsection

  .pushsection .text.hpp_cpu_fiber_start,"axG",@progbits,hpp_cpu_fiber_start,comdat
  .globl hpp_cpu_fiber_start
  .hidden hpp_cpu_fiber_start
  .type hpp_cpu_fiber_start,@function
hpp_cpu_fiber_start:
  .cfi_startproc
  .cfi_undefined rip
  callq *%rbx
  ud2
  .cfi_endproc
  .size hpp_cpu_fiber_start, .-hpp_cpu_fiber_start
  .popsection
)");

extern "C" void hpp_cpu_fiber_start();
#endif

namespace hpp {
namespace cpu {

/// An execution context: a host thread's own (default-constructed) or a
/// fiber with its own stack (create()).
class Fiber {
public:
  Fiber() = default;
  Fiber(const Fiber &) = delete;
  Fiber &operator=(const Fiber &) = delete;

  /// True once create() has given the fiber a stack.
  bool created() const { return Stack != nullptr; }

  /// Gives the fiber a stack of \p StackSize bytes on which \p Entry starts
  /// at the first swap() to it. \p Entry must never return.
  void create(void (*Entry)(), std::size_t StackSize) {
    Stack.reset(new char[StackSize]);
#if defined(HPP_CPU_NATIVE_FIBERS)
    if (native()) {
      // The frame hpp_cpu_fiber_switch pops: control words, r15..r12, rbx
      // (the entry), rbp, then the return address hpp_cpu_fiber_start,
      // which calls the entry with the stack 16-byte aligned.
      auto Top = reinterpret_cast<std::uintptr_t>(Stack.get() + StackSize) &
                 ~std::uintptr_t(15);
      auto *Frame = reinterpret_cast<std::uint64_t *>(Top - 88);
      std::uint16_t Fpu = 0;
      std::uint32_t Csr = 0;
      asm volatile("fnstcw %0\n\tstmxcsr %1" : "=m"(Fpu), "=m"(Csr));
      Frame[0] = Fpu;
      Frame[1] = Csr;
      for (int R = 2; R != 6; ++R)
        Frame[R] = 0; // r15, r14, r13, r12
      Frame[6] = reinterpret_cast<std::uint64_t>(Entry); // rbx
      Frame[7] = 0;                                      // rbp
      Frame[8] = reinterpret_cast<std::uint64_t>(&hpp_cpu_fiber_start);
      Sp = Frame;
      return;
    }
#endif
    getcontext(&Ctx);
    Ctx.uc_stack.ss_sp = Stack.get();
    Ctx.uc_stack.ss_size = StackSize;
    Ctx.uc_link = nullptr;
    makecontext(&Ctx, Entry, 0);
  }

  /// Saves the running context in \p From and resumes \p To.
  static void swap(Fiber &From, Fiber &To) {
#if defined(HPP_CPU_NATIVE_FIBERS)
    if (native()) {
      hpp_cpu_fiber_switch(&From.Sp, To.Sp);
      return;
    }
#endif
    swapcontext(&From.Ctx, &To.Ctx);
  }

private:
#if defined(HPP_CPU_NATIVE_FIBERS)
  /// False when a CET shadow stack is active (rdssp reads a non-zero
  /// pointer; on processors without CET it is a no-op that leaves 0).
  static bool native() {
    static const bool Native = [] {
      std::uint64_t Ssp = 0;
      asm volatile("rdsspq %0" : "+r"(Ssp));
      return Ssp == 0;
    }();
    return Native;
  }
  void *Sp = nullptr;
#endif
  std::unique_ptr<char[]> Stack;
  ucontext_t Ctx;
};

} // namespace cpu
} // namespace hpp

#endif // HPP_CPU_FIBER_H
