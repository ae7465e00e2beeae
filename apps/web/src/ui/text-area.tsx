import { clsx } from "clsx";
import type { Ref, TextareaHTMLAttributes } from "react";
import type { FieldValues } from "react-hook-form";
import { controlClass, Field, type WithField } from "./field";
import { type BoundProps, bind } from "./form-binding";

type TextAreaProps = WithField<TextareaHTMLAttributes<HTMLTextAreaElement>> & { ref?: Ref<HTMLTextAreaElement> };

/** A labelled multi-line input styled like TextField, with its error message underneath. */
export function TextArea({ ref, rows = 4, ...props }: TextAreaProps) {
  const className = clsx("resize-y rounded-xl px-3.5 py-2.5 text-[15px]", controlClass(Boolean(props.error)));
  return (
    <Field
      {...props}
      render={(control, rest) => <textarea ref={ref} rows={rows} {...control} className={className} {...rest} />}
    />
  );
}

/** A TextArea registered on a react-hook-form form. */
export function FormTextArea<T extends FieldValues>(props: BoundProps<typeof TextArea, T>) {
  const { form, name, ...rest } = props;
  return <TextArea {...rest} {...bind(form, name)} />;
}
