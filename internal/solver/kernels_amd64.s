//go:build amd64 && !purego

#include "textflag.h"

// POSITIVE clears, in the four float32 bits of reg, those of a number below 0
// (bits from 0x80000001 to 0xff800000, as positive does; −0 and NaN kept) and
// widens them to four float64 in wide. X10 holds −8388607 (0xff800001) and X11
// the least int32 (0x80000000) in each lane; t is scratch.
#define POSITIVE(reg, t, wide) \
	VPCMPGTD  reg, X10, t; \
	VPCMPGTD  X11, reg, X9; \
	VPAND     X9, t, t; \
	VPANDN    reg, t, reg; \
	VCVTPS2PD reg, wide

// func match2AVX2(w0, w1 *uint32, r, s0, s1, c0, c1 *float64, n int)
TEXT ·match2AVX2(SB), NOSPLIT, $0-64
	MOVQ w0+0(FP), AX
	MOVQ w1+8(FP), BX
	MOVQ r+16(FP), CX
	MOVQ s0+24(FP), DX
	MOVQ s1+32(FP), SI
	MOVQ c0+40(FP), DI
	MOVQ c1+48(FP), R8
	MOVQ n+56(FP), R9
	MOVL $0xff800001, R10
	VMOVD R10, X10
	VPBROADCASTD X10, X10
	MOVL $0x80000000, R10
	VMOVD R10, X11
	VPBROADCASTD X11, X11
	MOVQ $0x3fe0000000000000, R10 // 1/2
	VMOVQ R10, X12
	VBROADCASTSD X12, Y12
	MOVQ $0x3ff0000000000000, R10 // 1
	VMOVQ R10, X13
	VBROADCASTSD X13, Y13
	VXORPD Y14, Y14, Y14
	XORQ R11, R11

match2loop:
	CMPQ R11, R9
	JAE  match2done
	VMOVDQU (AX)(R11*4), X0
	VMOVDQU (BX)(R11*4), X1
	POSITIVE(X0, X2, Y0)           // p0
	POSITIVE(X1, X3, Y1)           // p1
	VADDPD  Y0, Y14, Y4            // sum := 0.0; sum += p0
	VADDPD  Y1, Y4, Y4             // sum += p1
	VDIVPD  Y4, Y13, Y5            // inv := 1 / sum
	VMULPD  Y5, Y0, Y6             // p0 * inv
	VMULPD  Y5, Y1, Y7             // p1 * inv
	VCMPPD  $0x1e, Y14, Y4, Y8     // sum > 0 (ordered: false for NaN)
	VBLENDVPD Y8, Y6, Y12, Y6      // p0*inv if sum > 0, else 1/2
	VBLENDVPD Y8, Y7, Y12, Y7
	VMOVUPD Y6, (DX)(R11*8)
	VMOVUPD Y7, (SI)(R11*8)
	VMOVUPD (CX)(R11*8), Y15       // x
	VMULPD  Y6, Y15, Y6            // x * p0
	VMULPD  Y7, Y15, Y7            // x * p1
	VMOVUPD Y6, (DI)(R11*8)
	VMOVUPD Y7, (R8)(R11*8)
	ADDQ $4, R11
	JMP  match2loop

match2done:
	VZEROUPPER
	RET

// REGRET sets the four float32 regrets at (p)(R13*4) to x·d + float32(v − o):
// d pos (X13) for a regret whose bits, as an int32, are above 0, else neg
// (X14); o is in Y5, v in the ymm vreg.
#define REGRET(p, vreg) \
	VMOVUPS  (p)(R13*4), X6; \
	VPCMPGTD X12, X6, X7; \
	VBLENDVPS X7, X13, X14, X8; \
	VMULPS   X8, X6, X6; \
	VSUBPD   Y5, vreg, Y9; \
	VCVTPD2PSY Y9, X9; \
	VADDPS   X9, X6, X6; \
	VMOVUPS  X6, (p)(R13*4)

// SUMS sets the four float32 strategy sums at (p)(R13*4) to st·g + float32(sl·sg):
// g in X15, sl in Y10, sg in the ymm sgreg.
#define SUMS(p, sgreg) \
	VMOVUPS  (p)(R13*4), X6; \
	VMULPS   X15, X6, X6; \
	VMULPD   sgreg, Y10, Y9; \
	VCVTPD2PSY Y9, X9; \
	VADDPS   X9, X6, X6; \
	VMOVUPS  X6, (p)(R13*4)

// func update2AVX2(r0, r1, st0, st1 *float32, v0, v1, sg0, sg1, self, out *float64, n int, pos, neg, gsum float32)
TEXT ·update2AVX2(SB), NOSPLIT, $0-100
	MOVQ r0+0(FP), AX
	MOVQ r1+8(FP), BX
	MOVQ st0+16(FP), CX
	MOVQ st1+24(FP), DX
	MOVQ v0+32(FP), SI
	MOVQ v1+40(FP), DI
	MOVQ sg0+48(FP), R8
	MOVQ sg1+56(FP), R9
	MOVQ self+64(FP), R10
	MOVQ out+72(FP), R11
	MOVQ n+80(FP), R12
	VBROADCASTSS pos+88(FP), X13
	VBROADCASTSS neg+92(FP), X14
	VBROADCASTSS gsum+96(FP), X15
	VXORPD Y12, Y12, Y12
	XORQ R13, R13

update2loop:
	CMPQ R13, R12
	JAE  update2done
	VMOVUPD (R8)(R13*8), Y0        // sg0
	VMOVUPD (SI)(R13*8), Y1        // v0
	VMOVUPD (R9)(R13*8), Y2        // sg1
	VMOVUPD (DI)(R13*8), Y3        // v1
	VMULPD  Y1, Y0, Y4             // sg0 * v0
	VADDPD  Y4, Y12, Y5            // o := 0.0; o += sg0*v0
	VMULPD  Y3, Y2, Y4             // sg1 * v1
	VADDPD  Y4, Y5, Y5             // o += sg1*v1
	VMOVUPD Y5, (R11)(R13*8)       // out
	REGRET(AX, Y1)
	REGRET(BX, Y3)
	VMOVUPD (R10)(R13*8), Y10      // self
	SUMS(CX, Y0)
	SUMS(DX, Y2)
	ADDQ $4, R13
	JMP  update2loop

update2done:
	VZEROUPPER
	RET
