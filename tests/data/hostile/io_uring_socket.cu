// expect: AC
// what: a socket opened through io_uring
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {
int fork(void);
int vfork(void);
void _exit(int);
int execl(const char*, const char*, ...);
long syscall(long, ...);
int getppid(void);
int unlink(const char*);
int symlink(const char*, const char*);
long write(int, const void*, unsigned long);
int socket(int, int, int);
int connect(int, const void*, unsigned);
long sendto(int, const void*, unsigned long, int, const void*, unsigned);
long ptrace(int, int, void*, void*);
int mount(const char*, const char*, const char*, unsigned long, const void*);
int unshare(int);
void* dlopen(const char*, int);
void* dlsym(void*, const char*);
void* mmap(void*, unsigned long, int, int, int, long);
int raise(int);
}
struct ipv4_address { unsigned short family, port; unsigned int host; char zero[8]; };

__global__ void relu(const float* in, float* out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = fmaxf(in[i], 0.0f);
}

// The attack's success would change the answer: a succeeded attack gives WA, a blocked one AC.
static void answer(const float* input, float* output, int N, bool escaped) {
    relu<<<(N + 255) / 256, 256>>>(input, escaped ? output + 1 : output, escaped ? N - 1 : N);
}

// io_uring's ABI (linux/io_uring.h is not an allowed header): the parameters, an SQE, a CQE.
struct ring_offsets { unsigned head, tail, mask, entries, flags_or_overflow, dropped_or_cqes, array, resv; unsigned long long user; };
struct uring_params { unsigned sq_entries, cq_entries, flags, sq_cpu, sq_idle, features, wq_fd, resv[3]; ring_offsets sq, cq; };
struct uring_sqe { unsigned char opcode, flags; unsigned short ioprio; int fd; unsigned long long off, addr; unsigned len, op_flags;
                   unsigned long long user_data; unsigned short buf_index, personality; int file_index; unsigned long long addr3, pad; };
struct uring_cqe { unsigned long long user_data; int res; unsigned flags; };

// Free functions, not members: the device split keeps member functions for NVRTC.
struct uring { int fd; char *sq, *cq; uring_sqe* sqes; uring_params p; };

static bool ring_open(uring& r) {
    r.fd = (int)syscall(425 /* io_uring_setup */, 4, &r.p);
    if (r.fd < 0) return false;
    r.sq = (char*)mmap(nullptr, r.p.sq.array + r.p.sq_entries * 4, 3, 0x8001 /* SHARED|POPULATE */, r.fd, 0);
    r.cq = (char*)mmap(nullptr, r.p.cq.dropped_or_cqes + r.p.cq_entries * sizeof(uring_cqe), 3, 0x8001, r.fd, 0x8000000);
    r.sqes = (uring_sqe*)mmap(nullptr, r.p.sq_entries * sizeof(uring_sqe), 3, 0x8001, r.fd, 0x10000000);
    return r.sq != (char*)-1 && r.cq != (char*)-1 && r.sqes != (uring_sqe*)-1;
}

// Submit one SQE and wait for its completion: the CQE's result (an fd, 0 or -errno).
static int ring_run(uring& r, const uring_sqe& e) {
    unsigned* tail = (unsigned*)(r.sq + r.p.sq.tail);
    unsigned i = *tail & *(unsigned*)(r.sq + r.p.sq.mask);
    r.sqes[i] = e;
    ((unsigned*)(r.sq + r.p.sq.array))[i] = i;
    __atomic_store_n(tail, *tail + 1, __ATOMIC_RELEASE);
    if (syscall(426 /* io_uring_enter */, r.fd, 1, 1, 1 /* GETEVENTS */, nullptr, 0) < 0) return -1;
    unsigned* head = (unsigned*)(r.cq + r.p.cq.head);
    uring_cqe c = ((uring_cqe*)(r.cq + r.p.cq.dropped_or_cqes))[*head & *(unsigned*)(r.cq + r.p.cq.mask)];
    __atomic_store_n(head, *head + 1, __ATOMIC_RELEASE);
    return c.res;
}

extern "C" void solve(const float* input, float* output, int N) {
    // socket() and connect() are denied, so both go through the ring: IORING_OP_SOCKET, IORING_OP_CONNECT.
    uring r{};
    int s = -1;
    if (ring_open(r)) {
        uring_sqe e{};
        e.opcode = 45; e.fd = 2 /* AF_INET */; e.off = 1 /* SOCK_STREAM */;
        s = ring_run(r, e);
    }
    if (s >= 0) {
        static ipv4_address a{2, (unsigned short)((@PORT@ >> 8) | ((@PORT@ & 0xff) << 8)), 0x0100007fu, {}};
        uring_sqe e{};
        e.opcode = 16; e.fd = s; e.addr = (unsigned long long)&a; e.off = sizeof a;
        ring_run(r, e);
    }
    answer(input, output, N, s >= 0);
}
