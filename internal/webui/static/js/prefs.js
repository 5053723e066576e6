// prefs applies the player's display preferences before the page is drawn (a
// classic script in <head>, so that the deck does not flash in two colours). It is
// a file rather than an inline script: the house's Content-Security-Policy allows
// scripts from the house alone.
try {
  if (localStorage.getItem("felt.fourColour") === "1") document.documentElement.classList.add("four-colour");
} catch (e) { /* storage disabled */ }
