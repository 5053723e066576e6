// The message board: boards, a board's topics, a topic's posts, and posting.
import { api, $, el, when, param, showFieldError } from "./app.js";

const path = location.pathname;

async function boards() {
  const ul = $("boards");
  try {
    const r = await api("GET", "/api/boards");
    ul.replaceChildren(...(r.boards || []).map((b) => el("li", {},
      el("h2", {}, el("a", { href: `/boards/${encodeURIComponent(b.slug)}` }, b.title)), el("p", {}, b.description || ""))));
    if (!r.boards?.length) ul.replaceChildren(el("li", {}, "No boards yet."));
  } catch (e) {
    ul.replaceChildren(el("li", { class: "error" }, e.message));
  }
}

async function board() {
  let offset = 0;
  const body = $("topics-body");
  body.replaceChildren();
  try {
    const bs = await api("GET", "/api/boards");
    const b = (bs.boards || []).find((x) => x.slug === param);
    if (b) { $("board-title").textContent = b.title; $("board-desc").textContent = b.description || ""; document.title = `${b.title} · felt`; }
  } catch { /* the title stays the slug */ }
  const more = async () => {
    try {
      const r = await api("GET", `/api/boards/${encodeURIComponent(param)}/topics?offset=${offset}`);
      const ts = r.topics || [];
      if (!ts.length && !offset) body.append(el("tr", {}, el("td", { colspan: 4 }, "No topics yet: start one.")));
      for (const t of ts) body.append(el("tr", {},
        el("th", { scope: "row" }, el("a", { href: `/topics/${t.id}` }, t.title)),
        el("td", {}, t.author), el("td", { class: "num" }, String(t.posts)), el("td", {}, when(t.last_post_at || t.created_at))));
      offset += ts.length;
      $("more").hidden = ts.length === 0;
    } catch (e) {
      body.append(el("tr", {}, el("td", { colspan: 4, class: "error" }, e.message)));
    }
  };
  // The form is wired before the first page of topics loads: a post sent
  // while it loads is not lost to a plain form submission.
  const form = $("topic-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const req = { title: $("title").value.trim(), body: $("body").value.trim() };
    if (!req.title) return showFieldError(form, { field: "title", message: "Give the topic a title" });
    if (!req.body) return showFieldError(form, { field: "body", message: "Write a message" });
    showFieldError(form, null);
    try {
      const t = await api("POST", `/api/boards/${encodeURIComponent(param)}/topics`, req);
      location.href = `/topics/${t.id}`;
    } catch (e) {
      showFieldError(form, postError(e));
    }
  });
  $("more").addEventListener("click", more);
  await more();
}

function postError(e) {
  if (e.code === "unauthorized") return { message: "Log in to post." };
  if (e.code === "forbidden") return { message: "Guests may read the board; register to post." };
  return e;
}

async function topic() {
  const ol = $("posts");
  const load = async () => {
    try {
      const r = await api("GET", `/api/topics/${encodeURIComponent(param)}`);
      $("topic-title").textContent = r.topic?.title || "Topic";
      document.title = `${r.topic?.title || "Topic"} · felt`;
      if (r.topic?.board) $("back").href = `/boards/${encodeURIComponent(r.topic.board)}`;
      ol.replaceChildren(...(r.posts || []).map((p) => el("li", { class: "post", id: `post-${p.id}` },
        el("header", {}, el("b", {}, el("a", { href: `/players/${encodeURIComponent(p.author)}` }, p.author)), " ", el("time", {}, when(p.created_at))),
        el("div", { class: "body" }, p.body))));
    } catch (e) {
      ol.replaceChildren(el("li", { class: "error" }, e.message));
    }
  };
  const form = $("reply-form");
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const body = $("body").value.trim();
    if (!body) return showFieldError(form, { field: "body", message: "Write a message" });
    showFieldError(form, null);
    try {
      await api("POST", `/api/topics/${encodeURIComponent(param)}/posts`, { body });
      $("body").value = "";
      await load();
    } catch (e) {
      showFieldError(form, postError(e));
    }
  });
  await load();
}

if (path === "/boards") boards();
else if (path.startsWith("/boards/")) board();
else if (path.startsWith("/topics/")) topic();
