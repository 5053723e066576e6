//go:build amd64 && !purego

#include "textflag.h"

// func rankSevens(hands []Seven) uint64
//
// The loop of rankSevensGo (workload.go), one hand a pass: the key is summed in one
// register from the seven cards' cardKey entries, as a chain of adds with a memory
// operand; a hand with no flush is looked up by rowOffset and rankTable; a flush is
// ranked out of line from the card mask (flushRankOf), with no call. Every table index
// is masked to its table's size, as in the Go code, so any bytes are read safely.
//
// Registers: SI the hand, DI the end of the hands, AX the sum, DX the key, BX and CX
// scratch (CX for shift counts), R8-R11 the tables, R12 emptyKey, R13 the card mask.
TEXT ·rankSevens(SB), NOSPLIT, $0-32
	MOVQ hands_base+0(FP), SI
	MOVQ hands_len+8(FP), DI
	LEAQ (DI)(DI*8), BX         // 7*len = 8*len - len
	SUBQ DI, BX
	SUBQ DI, BX
	LEAQ (SI)(BX*1), DI
	LEAQ ·cardKey(SB), R8
	LEAQ ·rowOffset(SB), R9
	LEAQ ·rankTable(SB), R10
	LEAQ ·flushRank(SB), R11
	MOVQ $0xc000000000003333, R12
	XORL AX, AX
	CMPQ SI, DI
	JAE  done
	PCALIGN $32

loop:
	MOVQ    R12, DX
	MOVBQZX 0(SI), BX
	ADDQ    (R8)(BX*8), DX
	MOVBQZX 1(SI), BX
	ADDQ    (R8)(BX*8), DX
	MOVBQZX 2(SI), BX
	ADDQ    (R8)(BX*8), DX
	MOVBQZX 3(SI), BX
	ADDQ    (R8)(BX*8), DX
	MOVBQZX 4(SI), BX
	ADDQ    (R8)(BX*8), DX
	MOVBQZX 5(SI), BX
	ADDQ    (R8)(BX*8), DX
	MOVBQZX 6(SI), BX
	ADDQ    (R8)(BX*8), DX
	TESTL   $0x8888, DX
	JNE     flush
	MOVQ    DX, BX
	SHRQ    $39, DX
	SHRQ    $48, BX
	ADDL    (R9)(BX*4), DX
	ANDL    $0x1ffff, DX
	MOVWQZX (R10)(DX*2), DX
	ADDQ    DX, AX

next:
	ADDQ $7, SI
	CMPQ SI, DI
	JB   loop

done:
	MOVQ AX, ret+24(FP)
	RET

flush:
	// flushRankOf(mask, key&flushCheck): the suit s is the lowest flush bit / 4, and
	// suitRanks folds the mask's bits of suit s into 13 rank bits.
	XORL    R13, R13
	MOVBQZX 0(SI), BX
	BTSQ    BX, R13
	MOVBQZX 1(SI), BX
	BTSQ    BX, R13
	MOVBQZX 2(SI), BX
	BTSQ    BX, R13
	MOVBQZX 3(SI), BX
	BTSQ    BX, R13
	MOVBQZX 4(SI), BX
	BTSQ    BX, R13
	MOVBQZX 5(SI), BX
	BTSQ    BX, R13
	MOVBQZX 6(SI), BX
	BTSQ    BX, R13
	ANDL    $0x8888, DX
	BSFQ    DX, CX
	SHRQ    $2, CX
	SHRQ    CX, R13
	MOVQ    $0x1111111111111, BX
	ANDQ    BX, R13
	MOVQ    R13, BX
	SHRQ    $3, BX
	ORQ     BX, R13
	MOVQ    $0x0303030303030303, BX
	ANDQ    BX, R13
	MOVQ    R13, BX
	SHRQ    $6, BX
	ORQ     BX, R13
	MOVQ    $0x000f000f000f000f, BX
	ANDQ    BX, R13
	MOVQ    $0x0001001001001000, BX
	IMULQ   BX, R13
	SHRQ    $48, R13
	ANDL    $0x1fff, R13
	MOVWQZX (R11)(R13*2), DX
	ADDQ    DX, AX
	JMP     next

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
