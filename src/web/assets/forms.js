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
