'use client';

import type { TMessages, TQuizQuestion } from '@kubejourney/content';
import { useState } from 'react';
import { RichText } from './rich-text';

type TProps = { questions: readonly TQuizQuestion[]; messages: TMessages['chapter'] };

function QuizQuestion({
  question,
  messages,
}: {
  question: TQuizQuestion;
  messages: TMessages['chapter'];
}) {
  const [picked, setPicked] = useState<string | null>(null);
  const [checked, setChecked] = useState(false);
  const isCorrect = checked && picked === question.answer;
  const promptId = `${question.id}-prompt`;

  return (
    <li id={question.id} className="rounded-xl bg-white p-5 shadow-sm ring-1 ring-stone-200">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (picked) setChecked(true);
        }}
      >
        <fieldset aria-labelledby={promptId}>
          <legend id={promptId} className="font-medium leading-relaxed text-stone-950">
            <RichText runs={question.prompt} />
          </legend>
          <div className="mt-3 space-y-2">
            {question.choices.map((choice) => (
              <label
                key={choice.id}
                className="flex cursor-pointer items-start gap-3 rounded-lg px-3 py-2 ring-1 ring-stone-200 hover:bg-stone-50 has-[:checked]:bg-stone-100 has-[:checked]:ring-stone-400"
              >
                <input
                  type="radio"
                  name={question.id}
                  value={choice.id}
                  checked={picked === choice.id}
                  onChange={() => {
                    setPicked(choice.id);
                    setChecked(false);
                  }}
                  className="mt-1 accent-stone-900"
                />
                <span className="leading-relaxed text-stone-800">
                  <RichText runs={choice.text} />
                </span>
              </label>
            ))}
          </div>
        </fieldset>
        <button
          type="submit"
          disabled={!picked}
          className="mt-4 rounded-full bg-stone-900 px-4 py-2 text-sm font-semibold text-white shadow-sm hover:bg-stone-700 disabled:cursor-not-allowed disabled:opacity-50"
        >
          {messages.checkAnswer}
        </button>
        <div aria-live="polite">
          {checked && (
            <p
              className={`mt-3 rounded-lg p-3 text-sm leading-relaxed ${isCorrect ? 'bg-green-50 text-green-900' : 'bg-rose-50 text-rose-900'}`}
            >
              <span className="font-semibold">
                {isCorrect ? messages.correct : messages.incorrect}{' '}
              </span>
              <RichText runs={question.explanation} />
            </p>
          )}
        </div>
      </form>
    </li>
  );
}

/** The chapter's questions: pick one choice, check it, and read why the answer is right. */
export function ChapterQuiz({ questions, messages }: TProps) {
  return (
    <ol className="space-y-4">
      {questions.map((question) => (
        <QuizQuestion key={question.id} question={question} messages={messages} />
      ))}
    </ol>
  );
}
