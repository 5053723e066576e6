//go:build amd64 && !purego

#include "textflag.h"

// KEY sums the cardKey entries of the seven cards at off(SI) into reg, from emptyKey (R12):
// one chain of adds with a memory operand. BX is scratch.
#define KEY(off, reg) \
	MOVQ    R12, reg; \
	MOVBQZX (off+0)(SI), BX; ADDQ (R8)(BX*8), reg; \
	MOVBQZX (off+1)(SI), BX; ADDQ (R8)(BX*8), reg; \
	MOVBQZX (off+2)(SI), BX; ADDQ (R8)(BX*8), reg; \
	MOVBQZX (off+3)(SI), BX; ADDQ (R8)(BX*8), reg; \
	MOVBQZX (off+4)(SI), BX; ADDQ (R8)(BX*8), reg; \
	MOVBQZX (off+5)(SI), BX; ADDQ (R8)(BX*8), reg; \
	MOVBQZX (off+6)(SI), BX; ADDQ (R8)(BX*8), reg

// LOOK adds rankOfKey(reg) to AX (reg and tmp are clobbered): the row's offset from
// rowOffset (key>>48 < len(rowOffset)), the slot masked to rankTable's size.
#define LOOK(reg, tmp) \
	MOVQ    reg, tmp; \
	SHRQ    $39, reg; \
	SHRQ    $48, tmp; \
	ADDL    (R9)(tmp*4), reg; \
	ANDL    $0x1ffff, reg; \
	MOVWQZX (R10)(reg*2), reg; \
	ADDQ    reg, AX

// FLUSH adds flushRankOf(mask, DX&flushCheck) to AX for the seven cards at off(SI),
// whose key is DX: their card mask (bit c&63 for card c, as BTSQ takes it), the suit s
// of the lowest flush bit, and suitRanks(mask, s), which is masked to flushRank's size.
// BX, CX, DX and R13 are clobbered.
#define FLUSH(off) \
	XORL    R13, R13; \
	MOVBQZX (off+0)(SI), BX; BTSQ BX, R13; \
	MOVBQZX (off+1)(SI), BX; BTSQ BX, R13; \
	MOVBQZX (off+2)(SI), BX; BTSQ BX, R13; \
	MOVBQZX (off+3)(SI), BX; BTSQ BX, R13; \
	MOVBQZX (off+4)(SI), BX; BTSQ BX, R13; \
	MOVBQZX (off+5)(SI), BX; BTSQ BX, R13; \
	MOVBQZX (off+6)(SI), BX; BTSQ BX, R13; \
	ANDL    $0x8888, DX; \
	BSFQ    DX, CX; \
	SHRQ    $2, CX; \
	SHRQ    CX, R13; \
	MOVQ    $0x1111111111111, BX; ANDQ BX, R13; \
	MOVQ    R13, BX; SHRQ $3, BX; ORQ BX, R13; \
	MOVQ    $0x0303030303030303, BX; ANDQ BX, R13; \
	MOVQ    R13, BX; SHRQ $6, BX; ORQ BX, R13; \
	MOVQ    $0x000f000f000f000f, BX; ANDQ BX, R13; \
	MOVQ    $0x0001001001001000, BX; IMULQ BX, R13; \
	SHRQ    $48, R13; \
	ANDL    $0x1fff, R13; \
	MOVWQZX (R11)(R13*2), DX; \
	ADDQ    DX, AX

// func rankSevens(hands []Seven) uint64
//
// rankSevensGo's loop (workload.go): two hands a pass, each key summed in one register
// (KEY) and tested for a flush on its own (one test for both, as rankSevensGo does,
// needs a second, unpredictable branch to find which hand holds it); hands with no
// flush looked up by rowOffset and rankTable (LOOK), flushes ranked out of line
// (FLUSH), with no call.
// Every table index is masked to its table's size, as in the Go code, so any bytes are
// read safely.
//
// Registers: SI the hands, DI the end of their pairs, AX the sum, DX and CX the two
// keys, BX scratch, R8-R11 the tables, R12 emptyKey, R13 scratch; key2 holds the second
// key while the first hand's flush is ranked.
TEXT ·rankSevens(SB), NOSPLIT, $8-32
	MOVQ  hands_base+0(FP), SI
	MOVQ  hands_len+8(FP), DI
	ANDQ  $-2, DI
	IMULQ $7, DI
	ADDQ  SI, DI
	LEAQ  ·cardKey(SB), R8
	LEAQ  ·rowOffset(SB), R9
	LEAQ  ·rankTable(SB), R10
	LEAQ  ·flushRank(SB), R11
	MOVQ  $0xc000000000003333, R12
	XORL  AX, AX
	CMPQ  SI, DI
	JAE   tail
	PCALIGN $32

loop:
	KEY(0, DX)
	KEY(7, CX)
	TESTL $0x8888, DX
	JNE   firstflush
	LOOK(DX, BX)

second:
	TESTL $0x8888, CX
	JNE   secondflush
	LOOK(CX, BX)

next:
	ADDQ $14, SI
	CMPQ SI, DI
	JB   loop

tail:
	MOVQ  hands_len+8(FP), BX
	TESTQ $1, BX
	JEQ   done
	KEY(0, DX)
	TESTL $0x8888, DX
	JNE   tailflush
	LOOK(DX, BX)

done:
	MOVQ AX, ret+24(FP)
	RET

tailflush:
	FLUSH(0)
	JMP done

firstflush:
	MOVQ CX, key2-8(SP)
	FLUSH(0)
	MOVQ key2-8(SP), CX
	JMP  second

secondflush:
	MOVQ CX, DX
	FLUSH(7)
	JMP  next

// func pairsNoFlush(key uint64, ps []uint64) uint64
//
// pairsNoFlushGo's loop (workload.go): the sum of rankOfKey(key+p) for p in ps.
TEXT ·pairsNoFlush(SB), NOSPLIT, $0-40
	MOVQ key+0(FP), DX
	MOVQ ps_base+8(FP), SI
	MOVQ ps_len+16(FP), CX
	LEAQ ·rowOffset(SB), R9
	LEAQ ·rankTable(SB), R10
	XORL AX, AX
	TESTQ CX, CX
	JZ   pdone
	PCALIGN $32

ploop:
	MOVQ    (SI), BX
	ADDQ    DX, BX
	MOVQ    BX, DI
	SHRQ    $39, BX
	SHRQ    $48, DI
	ADDL    (R9)(DI*4), BX
	ANDL    $0x1ffff, BX
	MOVWQZX (R10)(BX*2), BX
	ADDQ    BX, AX
	ADDQ    $8, SI
	DECQ    CX
	JNZ     ploop

pdone:
	MOVQ AX, ret+32(FP)
	RET
