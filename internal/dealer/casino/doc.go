// Package casino is the Casino Day three card stud dealer protocol of
// ../shared/RULES.md: writeUTF framing, the login/bet1/bet2/status/done messages,
// a dealer that seats network players and felt bots at engine hands, a spectator
// page, a reference client and a grader for student bots.
package casino
