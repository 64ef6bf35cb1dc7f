// Fiber context switch for x86-64 System V: only the callee-saved registers survive a call, so only
// they are saved. The SSE and x87 control words, which a call preserves too, are left alone: every
// fiber of a block runs under the same ones (see FpControlScope), and reloading them stalled every
// switch.

    .text

// void cudajudge_context_switch(void** save_sp, void* load_sp)
// Pushes the running context's state onto its stack, stores the stack pointer in *save_sp,
// then pops the state of the context whose stack pointer is load_sp and returns into it.
    .globl cudajudge_context_switch
    .hidden cudajudge_context_switch
    .type cudajudge_context_switch, @function
cudajudge_context_switch:
    .cfi_startproc
    pushq %rbp
    pushq %rbx
    pushq %r12
    pushq %r13
    pushq %r14
    pushq %r15
    movq %rsp, (%rdi)
    movq %rsi, %rsp
    popq %r15
    popq %r14
    popq %r13
    popq %r12
    popq %rbx
    popq %rbp
    ret
    .cfi_endproc
    .size cudajudge_context_switch, .-cudajudge_context_switch

// Where a new fiber's first switch returns to: calls entry(arg), with entry in r12 and arg in
// r13 (placed there by the fiber's initial frame). The entry function never returns.
    .globl cudajudge_context_start
    .hidden cudajudge_context_start
    .type cudajudge_context_start, @function
cudajudge_context_start:
    .cfi_startproc
    .cfi_undefined rip
    movq %r13, %rdi
    callq *%r12
    ud2
    .cfi_endproc
    .size cudajudge_context_start, .-cudajudge_context_start

    .section .note.GNU-stack, "", @progbits
