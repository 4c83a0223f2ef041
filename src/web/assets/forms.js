// Progressive forms: a field wrapped in data-shown-when="name=value" is hidden while its form's `name` control
// holds another value. Without this script every field stays visible and its label says when it is needed.
for (const wrapper of document.querySelectorAll("[data-shown-when]")) {
  const [name, value] = wrapper.dataset.shownWhen.split("=");
  const control = wrapper.closest("form")?.elements.namedItem(name);
  if (!control) continue;
  const update = () => {
    wrapper.hidden = control.value !== value;
  };
  control.addEventListener("change", update);
  update();
}

// A form that takes a while (an analysis): once sent, its button is disabled and says what is happening
// (data-busy="Analysing…"), so a second click cannot send it again; a rendered analysis says it takes longer.
for (const form of document.querySelectorAll("form[data-busy]")) {
  form.addEventListener("submit", () => {
    const button = form.querySelector("button[type=submit]");
    if (!button) return;
    const rendered = form.elements.namedItem("mode")?.value === "rendered";
    // Disabled after this event, so the button's own name/value still goes with the form.
    setTimeout(() => {
      button.disabled = true;
      button.textContent = form.dataset.busy;
    });
    const note = form.querySelector("[data-busy-note]");
    if (note) {
      note.hidden = false;
      note.textContent = rendered
        ? "Analysing in a browser: this takes longer, up to about half a minute."
        : "Analysing: this takes a few seconds.";
    }
  });
}
